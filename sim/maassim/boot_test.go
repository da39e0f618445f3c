package maassim_test

import (
	"context"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestRunOwnsBootHooks: Run does not return while an OnBoot hook runs, and
// once it has returned a deployment that ends boots nothing.
func TestRunOwnsBootHooks(t *testing.T) {
	st := newSite(t, 2)
	ids := st.ids(t)
	started, release := make(chan struct{}), make(chan struct{})
	var boots atomic.Int32
	st.sim.OnBoot(func(maassim.Boot) {
		if boots.Add(1) == 1 {
			close(started)
		}
		<-release
	})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- st.sim.Run(ctx) }()

	mustPost(t, st, "/MAAS/api/2.0/machines/"+ids[0]+"/?op=deploy", url.Values{})
	st.advance(time.Hour)
	<-started
	cancel()
	select {
	case <-ran:
		t.Fatal("Run returned while an OnBoot hook was still running")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-ran; err != nil {
		t.Fatalf("Run() = %v", err)
	}

	mustPost(t, st, "/MAAS/api/2.0/machines/"+ids[1]+"/?op=deploy", url.Values{})
	st.advance(time.Hour)
	wantStatus(t, st, ids[1], "Deployed")
	if n := boots.Load(); n != 1 {
		t.Errorf("%d boots, want 1: a machine booted after Run returned", n)
	}
}
