package fakehost_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	"github.com/gpuaas/maas-sidecar/agent/task/storage"
	"github.com/gpuaas/maas-sidecar/agent/task/users"
	"github.com/gpuaas/maas-sidecar/agent/task/validate"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
	"github.com/jonboulle/clockwork"
)

// TestMain makes the test binary the fake tools too: run under a tool's
// name (through the links Provision makes) it acts as that tool, as
// sim/cmd/fakehost and sim/cmd/fakegpu do.
func TestMain(m *testing.M) {
	name := filepath.Base(os.Args[0])
	root := os.Getenv(hostexec.RootEnv)
	switch {
	case slices.Contains(fakehost.Tools, name):
		os.Exit(fakehost.Main(root, name, os.Args[1:], os.Stdout, os.Stderr))
	case name == "nvidia-smi" || name == "amd-smi":
		os.Exit(fakesmi.Main(root, name, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// toolsDir returns a directory whose fakehost and fakegpu are this binary.
func toolsDir(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range []string{"fakehost", "fakegpu"} {
		if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// step is one agent task of a turnover.
type step struct {
	typ     string
	handler task.Handler
	payload string
}

var turnover = []step{
	{wire.TypeRevokeUser, users.Handler{Remove: true}, `{}`},
	{wire.TypeStorageCleanup, storage.Handler{}, `{"mode":"all"}`},
	{wire.TypeGPUScrub, gpuscrub.Handler{}, `{"kill_processes":true}`},
	{wire.TypeValidateClean, validate.Handler{}, `{}`},
}

// TestTurnoverOnASimulatedHost runs the real cleanup, scrub and
// validation handlers through the real exec seam (commands resolved on
// the host root's PATH, run as processes) against a provisioned host with
// tenant residue: the turnover ends clean, and a GPU that refuses reset
// fails the scrub and the validation.
func TestTurnoverOnASimulatedHost(t *testing.T) {
	tests := []struct {
		name       string
		residue    fakehost.Residue
		wantFailed []string // task types that fail
		wantLeft   int      // GPU residue entries left
		amd        bool     // two MI300X instead of two H100
	}{
		{"every residue cleared", fakehost.Residue{User: "tenant1", Process: true, Session: true, WekaMount: "/mnt/weka",
			GPUMemoryMiB: 4096, ScratchFile: true}, nil, 0, false},
		{"a GPU that refuses reset", fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 4096, StuckGPU: true},
			[]string{wire.TypeGPUScrub, wire.TypeValidateClean}, 1, false},
		// An XGMI error in the tenancy fails the scrub, naming it; the
		// process holding /dev/kfd is killed before the reset, which then
		// runs, and the counts are reset for the next tenancy.
		{"an AMD tenancy with an XGMI error", fakehost.Residue{User: "tenant1", Process: true, KFDHolder: true, XGMIError: true},
			[]string{wire.TypeGPUScrub}, 0, true},
	}
	tools := toolsDir(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			gpus := fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 2}
			if tt.amd {
				gpus.Vendor = fakehost.VendorAMD
			}
			err := fakehost.Provision(root, fakehost.Spec{ToolsDir: tools, GPUs: gpus})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fakehost.Inject(root, tt.residue); err != nil {
				t.Fatal(err)
			}
			if r, _ := fakehost.Inspect(root); r.Clean() {
				t.Fatal("Inspect found no residue after Inject")
			}
			env := task.Env{Root: hostroot.Root(root), Exec: hostexec.Runner{Root: hostroot.Root(root)}, Clock: clockwork.NewRealClock(),
				Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, Policy: task.Policy{KeepUsers: []string{"ubuntu"}}}
			var failed []string
			for _, s := range turnover {
				res, err := s.handler.Run(context.Background(), env, []byte(s.payload))
				if err != nil {
					failed = append(failed, s.typ)
					t.Logf("%s: %v", s.typ, err)
				}
				if tt.amd && s.typ == wire.TypeGPUScrub && (len(res.Evidence.GPUs) != 2 ||
					!strings.Contains(res.Evidence.GPUs[0].Reason, "XGMI error status AMDSMI_XGMI_STATUS_ERROR") || !res.Evidence.GPUs[1].Passed) {
					t.Errorf("AMD scrub: GPU 0 must fail naming the XGMI error, GPU 1 pass: %+v", res.Evidence.GPUs)
				}
				if res.Evidence == nil || res.Evidence.Passed != (err == nil) {
					t.Errorf("%s: evidence %+v does not match its error %v", s.typ, res.Evidence, err)
				}
			}
			if fmt.Sprint(failed) != fmt.Sprint(tt.wantFailed) {
				t.Errorf("failed tasks = %v, want %v", failed, tt.wantFailed)
			}
			r, err := fakehost.Inspect(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.GPUs) != tt.wantLeft || len(r.Users)+len(r.Processes)+len(r.Mounts)+len(r.Files) != 0 {
				t.Errorf("left after the turnover: %+v; want only %d GPU(s)", r, tt.wantLeft)
			}
			if tt.wantLeft > 0 && !strings.Contains(r.GPUs[0], "index 0") {
				t.Errorf("GPU residue %q is not the stuck GPU 0", r.GPUs)
			}
		})
	}
}
