package maas_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// The feed's cursor loop: after=<last id>, level DEBUG, limit; MAAS gives
// the oldest newer events newest-first, so the cursor is the first id.
func TestEventsCursor(t *testing.T) {
	e := newEnv(t, 2)
	ctx := context.Background()
	ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{})
	for _, m := range ms {
		if _, err := e.client.Deploy(ctx, m.SystemID, lifecycle.DeploySpec{}); err != nil {
			t.Fatal(err)
		}
	}
	e.advance(time.Minute)
	var cursor int64
	var seen []int64
	var changes []string
	for page := 0; page < 100; page++ {
		evs, err := e.client.EventsAfter(ctx, cursor, 4) // oldest first
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			break
		}
		for _, ev := range evs {
			seen = append(seen, ev.ID)
			if ev.Type == "Node changed status" && ev.SystemID == ms[0].SystemID {
				changes = append(changes, ev.Description)
			}
		}
		if evs[0].Created.IsZero() || evs[0].Level == "" {
			t.Fatalf("untranslated event %+v", evs[0])
		}
		cursor = evs[len(evs)-1].ID
	}
	if newest, err := e.client.NewestEventID(ctx); err != nil || newest != cursor {
		t.Fatalf("newest event id %d, paged up to %d: %v", newest, cursor, err)
	}
	for i := range seen {
		if seen[i] != int64(i+1) {
			t.Fatalf("cursor skipped or repeated events: %v", seen)
		}
	}
	want := []string{"From 'Ready' to 'Allocated' (to admin)", "From 'Allocated' to 'Deploying'", "From 'Deploying' to 'Deployed'"}
	if d := cmp.Diff(want, changes); d != "" {
		t.Fatalf("status changes (-want +got):\n%s", d)
	}
	latest, err := e.client.Events(ctx, maas.EventQuery{SystemIDs: []string{ms[1].SystemID}, Limit: 1})
	if err != nil || len(latest) != 1 || latest[0].Type != "Deployed" || latest[0].SystemID != ms[1].SystemID {
		t.Fatalf("latest INFO event %+v %v", latest, err)
	}
	if _, err := e.client.Events(ctx, maas.EventQuery{Limit: 1001}); err == nil {
		t.Fatal("limit 1001 accepted")
	}
}

func TestImageSeries(t *testing.T) {
	for in, want := range map[string]string{"gpuaas-ubuntu-2204": "custom/gpuaas-ubuntu-2204",
		"custom/gpuaas-x": "custom/gpuaas-x", "jammy": "jammy", "ubuntu/noble": "ubuntu/noble"} {
		if got := maas.ImageSeries(in); got != want {
			t.Errorf("ImageSeries(%q) = %q, want %q", in, got, want)
		}
	}
}
