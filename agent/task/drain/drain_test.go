package drain_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/drain"
)

func TestDrainWritesMarker(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	env := task.Env{Root: hostroot.Root(root), Clock: clockwork.NewFakeClockAt(now)}
	if _, err := (drain.Handler{}).Run(context.Background(), env, []byte(`{"reason":"decommission"}`)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, drain.MarkerPath))
	if err != nil {
		t.Fatal(err)
	}
	var got drain.Marker
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(drain.Marker{Reason: "decommission", DrainedAt: now}, got); diff != "" {
		t.Errorf("marker (-want +got):\n%s", diff)
	}
}
