package heartbeat_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/heartbeat"
)

func TestHeartbeatReadsUptimeUnderRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "proc/uptime"), []byte("12345.67 999.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "proc/sys/kernel/random"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "proc/sys/kernel/random/boot_id"), []byte("9d1e\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := task.Env{Root: hostroot.Root(root), Clock: clockwork.NewFakeClockAt(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	res, err := heartbeat.Handler{}.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"agent_time": "2026-01-01T00:00:00Z", "uptime_seconds": "12345.67", "boot_id": "9d1e"}
	if diff := cmp.Diff(want, res.Details); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
}
