package maassim

import (
	"context"
	"testing"
	"time"
)

func TestRecommissionAndHardwareSyncOutOfBand(t *testing.T) {
	s, err := New(Options{APIKey: "a:b:c"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sid, err := s.AddMachine(HostSpec{}, "gpu-1", StatusDeployed)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := s.SetHardwareSyncOutOfBand(ctx, sid, true, 900, at); err != nil {
		t.Fatal(err)
	}
	j := s.renderMachine(s.machines[sid])
	if !j.EnableHWSync || j.SyncInterval == nil || *j.SyncInterval != 900 || j.LastSync == nil || j.NextSync == nil {
		t.Fatalf("hardware sync not set: %+v", j)
	}
	if err := s.RecommissionOutOfBand(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if st := s.machines[sid].status; st != StatusCommissioning {
		t.Fatalf("status %s, want Commissioning", st)
	}
	if err := s.RecommissionOutOfBand(ctx, "nope"); err == nil {
		t.Fatal("unknown machine must fail")
	}
}
