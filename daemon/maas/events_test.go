package maas_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// The feed's cursor loop: after=<last id>, level DEBUG, limit; MAAS gives
// the oldest newer events newest-first, so the cursor is the first id.
func TestEventsCursor(t *testing.T) {
	e := newEnv(t, 2)
	ctx := context.Background()
	ms, _ := e.client.Machines(ctx, maas.MachineFilter{})
	for _, m := range ms {
		if _, err := e.client.Deploy(ctx, m.SystemID, maas.DeployOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	e.advance(time.Minute)
	cursor := 0
	var seen []int
	var changes []string
	for page := 0; page < 100; page++ {
		evs, err := e.client.Events(ctx, maas.EventQuery{After: &cursor, Level: "DEBUG", Limit: 4})
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			break
		}
		for i := len(evs) - 1; i >= 0; i-- {
			seen = append(seen, evs[i].ID)
			if evs[i].Type == "Node changed status" && evs[i].SystemID == ms[0].SystemID {
				changes = append(changes, evs[i].Description)
			}
		}
		if evs[0].Created.IsZero() || evs[0].Level == "" {
			t.Fatalf("untranslated event %+v", evs[0])
		}
		cursor = evs[0].ID
	}
	for i := range seen {
		if seen[i] != i+1 {
			t.Fatalf("cursor skipped or repeated events: %v", seen)
		}
	}
	want := []string{"From 'Ready' to 'Allocated' (to admin)", "From 'Allocated' to 'Deploying'", "From 'Deploying' to 'Deployed'"}
	if d := cmp.Diff(want, changes); d != "" {
		t.Fatalf("status changes (-want +got):\n%s", d)
	}
	newest, err := e.client.Events(ctx, maas.EventQuery{SystemIDs: []string{ms[1].SystemID}, Limit: 1})
	if err != nil || len(newest) != 1 || newest[0].Type != "Deployed" || newest[0].Hostname != ms[1].Hostname {
		t.Fatalf("newest INFO event %+v %v", newest, err)
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
