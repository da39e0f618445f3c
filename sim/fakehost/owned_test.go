package fakehost_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// A departing tenant's KV cache in /dev/shm, weights in a shared
// directory and crontab: the turnover's storage cleanup removes the first
// and the last, validation fails naming the weights, and the GPU a
// swap replaced shows in validation's inventory with its new serial.
// Giving files to another UID takes root; elsewhere Inject says so.
func TestTenantOwnedFilesAndASwappedGPUOnASimulatedHost(t *testing.T) {
	root := t.TempDir()
	err := fakehost.Provision(root, fakehost.Spec{ToolsDir: toolsDir(t), GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 2}})
	if err != nil {
		t.Fatal(err)
	}
	in, err := fakehost.Inject(root, fakehost.Residue{User: "tenant1", OwnedFiles: true, SwapGPU: 2})
	if os.Geteuid() != 0 {
		if err == nil || !strings.Contains(err.Error(), "chown") {
			t.Fatalf("Inject of owned files as uid %d = %v; want a chown error", os.Geteuid(), err)
		}
		return
	}
	if err != nil || len(in.Files) != 3 {
		t.Fatalf("Inject = %+v, %v", in, err)
	}
	env := task.Env{Root: hostroot.Root(root), Exec: hostexec.Runner{Root: hostroot.Root(root)}, Clock: clockwork.NewRealClock(),
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, Policy: task.Policy{KeepUsers: []string{"ubuntu"}}}
	var ev *wire.Evidence
	for _, s := range turnover {
		res, _ := s.handler.Run(context.Background(), env, []byte(s.payload))
		ev = res.Evidence
	}
	if ev == nil || ev.Passed || ev.Task != wire.TypeValidateClean {
		t.Fatalf("validation = %+v; want it failed", ev)
	}
	var paths []string
	for _, it := range ev.TenantOwned {
		paths = append(paths, it.Path)
	}
	if !slices.Equal(paths, []string{"/data/shared/tenant1-weights.safetensors"}) {
		t.Errorf("tenant-owned items left = %v; want the weights only (the KV cache and crontab removed)", paths)
	}
	r, _ := fakehost.Inspect(root)
	if slices.Contains(r.Files, "/dev/shm/vllm-kv-tenant1") || slices.Contains(r.Files, "/var/spool/cron/crontabs/tenant1") {
		t.Errorf("files left: %v", r.Files)
	}
	if ev.Inventory == nil || len(ev.Inventory.GPUs) != 2 || ev.Inventory.GPUs[1].Serial != "1659990000002" {
		t.Errorf("inventory after the swap = %+v", ev.Inventory)
	}
}
