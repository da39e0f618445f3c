package repair_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// A fault or verdict blaming a GPU by its bus id records a failure in
// that GPU's history once however often it is reported; a part the
// node's bill of materials does not hold is invalid naming "part".
func TestRecorderFailure(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: clockwork.NewFakeClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.CreateSite(ctx, lifecycle.Site{ID: "s1", Name: "s1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults(), lifecycle.DefaultSitePolicy("s1")); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateNode(ctx, lifecycle.Node{ID: "n1", SiteID: "s1", Hostname: "h1", Status: lifecycle.NodeEnrolling}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := st.UpdateNode(ctx, "n1", func(n *lifecycle.Node) error {
		n.Inventory = &lifecycle.NodeInventory{RecordedAt: &now, Recorded: &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{
			{Serial: "G0", UUID: "u0", BusID: "00000000:1B:00.0"}, {Serial: "G1", UUID: "u1", BusID: "00000000:3B:00.0"}}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r := repair.Recorder{Store: st}
	for range 2 {
		got, err := r.Failure(ctx, "n1", "fault", "key-1", "0000:3b:00.0", "silent data corruption", now.Add(time.Minute))
		if err != nil || !slices.Equal(got, []string{"G1"}) {
			t.Fatalf("blamed %v, %v", got, err)
		}
	}
	h, err := st.PartHistory(ctx, "G1")
	if err != nil || len(h) != 2 || h[1].Kind != lifecycle.PartFailure || h[1].Source != "fault" || h[1].Detail != "silent data corruption" {
		t.Fatalf("history %+v, %v", h, err)
	}
	if _, err := r.Failure(ctx, "n1", "fault", "key-2", "G7", "x", now); lifecycle.ErrorField(err) != "part" {
		t.Fatalf("unknown part: %v", err)
	}
}
