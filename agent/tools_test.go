package agent

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// The enrollment's inventory never reads the vendor tools while a health
// pass holds them (a query beside the inventory read made it see no GPU,
// and the onboarding's SKU check refused the host), and a pass finds the
// tools taken while the inventory reads them.
func TestInventoryAndHealthPassTakeTurnsWithTheTools(t *testing.T) {
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	if err := os.MkdirAll(filepath.Join(r.root, "state"), 0o700); err != nil { // Run makes it
		t.Fatal(err)
	}
	var reading, read atomic.Bool
	r.a.o.Inventory = func(context.Context, task.Env) *wire.Inventory {
		reading.Store(true)
		if _, ok := r.a.TryTools(); ok {
			t.Error("a health pass took the tools during the inventory read")
		}
		read.Store(true)
		return &wire.Inventory{}
	}
	tr.EnrollFn = func(wire.EnrollRequest) (wire.CertResponse, error) { return wire.CertResponse{}, context.Canceled }
	release, ok := r.a.TryTools() // a pass is reading
	if !ok {
		t.Fatal("the tools are taken before anything runs")
	}
	done := make(chan struct{})
	var enrollErr error
	go func() { defer close(done); enrollErr = r.a.enroll(context.Background(), "token-1") }()
	time.Sleep(50 * time.Millisecond)
	if reading.Load() {
		t.Fatal("the inventory read the tools while a pass held them")
	}
	release()
	<-done
	if !read.Load() {
		t.Fatalf("the inventory was not read once the pass let go (enroll: %v)", enrollErr)
	}
	if rel, ok := r.a.TryTools(); !ok {
		t.Fatal("the enrollment kept the tools")
	} else {
		rel()
	}
}
