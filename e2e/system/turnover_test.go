//go:build e2e

package system

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestAgentBinaryTurnsASimulatedHostOver: the real agent binary, enrolled
// with the real agent API, runs a tenant turnover's tasks (revoke users,
// storage cleanup, GPU scrub, clean validation) on a simulated host with
// eight NVIDIA GPUs and the fake host tools on its PATH. Residue of every
// kind ends cleared with passing evidence; a GPU that refuses reset while
// something holds the driver fails the scrub and the validation and is
// left as residue; one that refuses while nothing holds it is cleared by
// the scrub's driver reload (with a narrowed PCIe link and a down NVLink,
// history events, it still passes).
func TestAgentBinaryTurnsASimulatedHostOver(t *testing.T) {
	if bins.err != nil {
		t.Fatalf("building the binaries under test: %v", bins.err)
	}
	tests := []struct {
		name       string
		residue    fakehost.Residue
		wantFailed []lifecycle.TaskType
		wantGPUs   int // GPU residue entries left
	}{
		{"every residue cleared", fakehost.Residue{User: "tenant1", Process: true, Session: true, WekaMount: "/mnt/weka",
			GPUMemoryMiB: 4096, ScratchFile: true}, nil, 0},
		{"a GPU that refuses reset", fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 4096, StuckGPU: true},
			[]lifecycle.TaskType{lifecycle.TaskGPUScrub, lifecycle.TaskValidateClean}, 1},
		{"a refused reset the driver reload clears", fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 4096, RefuseReset: true,
			NarrowPCIe: true, NVLinkDown: true}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := agentenv.New(t, agentenv.Options{})
			node := e.Node(lifecycle.NodeActive)
			root := bootAgentBinary(t, e, node)
			if _, err := fakehost.Inject(root, tt.residue); err != nil {
				t.Fatal(err)
			}
			var failed []lifecycle.TaskType
			for _, s := range []struct {
				typ     lifecycle.TaskType
				payload any
			}{
				{lifecycle.TaskRevokeUser, wire.UsersPayload{}},
				{lifecycle.TaskStorageCleanup, wire.StorageCleanupPayload{Mode: wire.StorageAll}},
				{lifecycle.TaskGPUScrub, wire.GPUScrubPayload{KillProcesses: true}},
				{lifecycle.TaskValidateClean, wire.ValidateCleanPayload{}},
			} {
				task := e.Enqueue(node, s.typ, s.payload, 5*time.Minute)
				done := waitTask(t, e, task.ID)
				var ev wire.Evidence
				if done.Result == nil || json.Unmarshal(done.Result.Evidence, &ev) != nil || ev.Passed != done.Result.Success {
					t.Fatalf("%s: result %+v carries no evidence matching its outcome", s.typ, done.Result)
				}
				if !done.Result.Success {
					failed = append(failed, s.typ)
					t.Logf("%s failed: %s", s.typ, done.Result.Message)
				}
			}
			if fmt.Sprint(failed) != fmt.Sprint(tt.wantFailed) {
				t.Errorf("failed tasks = %v, want %v", failed, tt.wantFailed)
			}
			r := hostResidue(t, root)
			if len(r.GPUs) != tt.wantGPUs || len(r.Users)+len(r.Processes)+len(r.Mounts)+len(r.Files) != 0 {
				t.Errorf("left on the host: %+v; want only %d GPU(s)", r, tt.wantGPUs)
			}
		})
	}
}

// bootAgentBinary provisions a simulated host (eight NVIDIA GPUs, the
// fake tools on PATH), lays out what cloud-init would leave for node and
// starts the agent binary on it; it returns the host root.
func bootAgentBinary(t *testing.T, e *agentenv.Env, node string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "host")
	err := fakehost.Provision(root, fakehost.Spec{ToolsDir: bins.dir, GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 8}})
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(e.PKI.SigningPublicKey())
	key := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	cfg := fmt.Sprintf("api_url: %s\nnode_id: %s\npoll_timeout: 2s\nretry_initial: 50ms\nretry_max: 500ms\nsigning_public_key: |\n  %s\n",
		e.URL, node, strings.ReplaceAll(strings.TrimSpace(string(key)), "\n", "\n  "))
	for p, body := range map[string]string{"etc/gpuaas-node-agent/config.yaml": cfg,
		"etc/gpuaas-node-agent/enrollment-token": e.Token(node) + "\n", "etc/gpuaas-node-agent/ca.pem": string(e.PKI.CABundlePEM())} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	startProc(t, "agent", nil, bins.agent, "--root", root, "--config", filepath.Join(root, "etc/gpuaas-node-agent/config.yaml"),
		"--state-dir", filepath.Join(root, "var/lib/gpuaas-node-agent"))
	return root
}

// waitTask waits until the task is finished and returns it.
func waitTask(t *testing.T, e *agentenv.Env, id string) lifecycle.AgentTask {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		task, err := e.Store.GetTask(e.Ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if task.State.Terminal() {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s (%s) still %s after 2m", id, task.Type, task.State)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hostResidue inspects a host root directly.
func hostResidue(t *testing.T, root string) fakehost.Report {
	t.Helper()
	r, err := fakehost.Inspect(root)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
