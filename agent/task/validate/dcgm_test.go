package validate_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/task/validate"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// dcgmHost is a clean host with DCGM installed; edit changes its state.
func dcgmHost(t *testing.T, edit func(*fakesmi.State)) *tasktest.Host {
	h := cleanHost(t)
	s, err := fakesmi.Load(string(h.Root))
	if err != nil {
		t.Fatal(err)
	}
	s.DCGM = &fakesmi.DCGMState{Version: "4.6.0"}
	if edit != nil {
		edit(s)
	}
	if err := fakesmi.Save(string(h.Root), s); err != nil {
		t.Fatal(err)
	}
	fakeTool(h, "dcgmi")
	return h
}

// fakeTool answers tool on the host's scripted exec from the fake tools.
func fakeTool(h *tasktest.Host, tool string) {
	h.Exec.Set(tool, func(args []string) ([]byte, error) {
		var out, errb bytes.Buffer
		if code := fakesmi.Main(string(h.Root), tool, args, &out, &errb); code != 0 {
			return out.Bytes(), fakeexec.Exit(tool, code, errb.String())
		}
		return out.Bytes(), nil
	})
}

// cleanHost is host with its scratch directory empty.
func cleanHost(t *testing.T) *tasktest.Host {
	h := host(t)
	if err := os.RemoveAll(h.Path("/tmp/.keep-dir")); err != nil {
		t.Fatal(err)
	}
	return h
}

func runDCGM(t *testing.T, h *tasktest.Host, dcgm string) (*wire.Evidence, error) {
	t.Helper()
	env := h.Env()
	env.Policy.KeepUsers = []string{"ubuntu"}
	res, err := validate.Handler{}.Run(context.Background(), env, []byte(`{"mount_allowlist":["/data"],"dcgm":`+dcgm+`}`))
	if res.Evidence == nil || res.Evidence.Diag == nil {
		t.Fatalf("no diagnostic evidence: %v %+v", err, res.Evidence)
	}
	return res.Evidence, err
}

func TestDCGMLevelOnACleanHostPasses(t *testing.T) {
	h := dcgmHost(t, nil)
	ev, err := runDCGM(t, h, `{"level":1}`)
	if err != nil {
		t.Fatalf("clean host failed: %v %+v", err, ev.Diag)
	}
	d := ev.Diag
	if d.State != "ran" || d.Level != 1 || d.RequestedLevel != 1 || len(d.EscalatedBy) != 0 || !d.Passed || d.TimeoutSeconds != 300 {
		t.Errorf("diag = %+v", d)
	}
	if len(d.Tests) != 1 || d.Tests[0].Name != "software" || len(d.Tests[0].Results) != 1 || d.Tests[0].Results[0].Status != "Pass" {
		t.Errorf("tests = %+v", d.Tests)
	}
	if calls := h.Exec.CallsOf("dcgmi"); len(calls) != 1 || calls[0] != "dcgmi diag -r 1 -j" {
		t.Errorf("dcgmi calls = %v", calls)
	}
}

// A tenancy that left an uncorrectable ECC count raises level 1 to 2,
// whose memory test fails on that GPU; the daemon can ask for the same.
func TestDCGMEscalatesOnTheTenancysHistory(t *testing.T) {
	h := dcgmHost(t, func(s *fakesmi.State) { s.NVIDIA.GPUs[0].ECCAggregate = 1 })
	ev, err := runDCGM(t, h, `{"level":1}`)
	if err == nil {
		t.Fatal("passed")
	}
	d := ev.Diag
	if d.Level != 2 || d.RequestedLevel != 1 || d.Passed || !strings.Contains(strings.Join(d.EscalatedBy, "|"), "GPU 0: 1 uncorrectable ECC error(s) over the GPU's life (aggregate)") {
		t.Errorf("diag = %+v", d)
	}
	if !strings.Contains(d.Reason, "memory on GPU 0: GPU 0 failed the memory test (error 46)") {
		t.Errorf("reason = %q", d.Reason)
	}
	ev, err = runDCGM(t, dcgmHost(t, nil), `{"level":1,"escalate":true}`)
	if err != nil || ev.Diag.Level != 2 || len(ev.Diag.Tests) != 3 {
		t.Errorf("daemon's escalation: %v %+v", err, ev.Diag)
	}
	ev, _ = runDCGM(t, dcgmHost(t, nil), `{"level":4,"escalate":true}`)
	if ev.Diag.Level != 4 {
		t.Errorf("level 4 escalated to %d", ev.Diag.Level)
	}
}

// Level 2 hangs on some boards: the run ends at the level's bound and
// fails with its own reason.
func TestDCGMHangIsAFailure(t *testing.T) {
	h := dcgmHost(t, func(s *fakesmi.State) { s.DCGM.HangLevel = 2 })
	start := time.Now()
	ev, err := runDCGM(t, h, `{"level":2,"timeout_seconds":{"2":1}}`)
	if err == nil || time.Since(start) > 30*time.Second {
		t.Fatalf("a hung diagnostic: err %v after %s", err, time.Since(start))
	}
	if d := ev.Diag; d.State != "timeout" || d.Passed || !strings.HasPrefix(d.Reason, "dcgm_diag_timeout: level 2 did not finish within 1s") {
		t.Errorf("diag = %+v", d)
	}
}

func TestDCGMMissingOffAndNotRequested(t *testing.T) {
	ev, err := runDCGM(t, cleanHost(t), `{"level":1}`)
	if err == nil || ev.Diag.State != "missing" || !strings.HasPrefix(ev.Diag.Reason, "site_capability_missing: dcgmi is not installed on a host with 1 NVIDIA GPU(s)") {
		t.Errorf("missing: %v %+v", err, ev.Diag)
	}
	ev, err = runDCGM(t, cleanHost(t), `{"off":true}`)
	if err != nil || ev.Diag.State != "off" || !ev.Diag.Passed || ev.Diag.Reason != "site policy: DCGM diagnostics off" {
		t.Errorf("off: %v %+v", err, ev.Diag)
	}
	ev, err = runDCGM(t, cleanHost(t), `null`)
	if err != nil || ev.Diag.State != "not_requested" {
		t.Errorf("not requested: %v %+v", err, ev.Diag)
	}
	if _, err := runDCGM(t, dcgmHost(t, nil), `{"level":5}`); err == nil {
		t.Error("level 5 ran")
	}
}

// With the tenancy's start in the payload the validation reads the
// kernel log from then on: an Xid of the tenancy is listed in kernel_xid
// and raises the DCGM level. Without it, no kernel log is read and the
// level stays.
func TestTenancyXidsRaiseTheLevel(t *testing.T) {
	h := dcgmHost(t, nil)
	h.Write("/var/log/kern.log", "2026-11-28T09:12:01+0000 gpu01 kernel: NVRM: Xid (PCI:0000:18:00): 74, pid=4000, name=python3, NVLink: fatal error\n")
	env := h.Env()
	env.Policy.KeepUsers = []string{"ubuntu"}
	res, _ := validate.Handler{}.Run(context.Background(), env,
		[]byte(`{"mount_allowlist":["/data"],"dcgm":{"level":1},"tenancy_since":"2026-11-28T08:00:00Z"}`))
	ev := res.Evidence
	if ev == nil || ev.Diag == nil || ev.Diag.Level != 2 || !strings.Contains(strings.Join(ev.Diag.EscalatedBy, ";"), "Xid 74") {
		t.Fatalf("diag %+v; want level 2 escalated by the Xid 74", ev)
	}
	found := false
	for _, c := range ev.Checks {
		found = found || (c.Name == "kernel_xid" && c.Passed && len(c.Items) == 1)
	}
	if !found {
		t.Errorf("no kernel_xid check listing the Xid: %+v", ev.Checks)
	}
	if ev, _ := runDCGM(t, h, `{"level":1}`); ev.Diag.Level != 1 {
		t.Errorf("without tenancy_since: level %d, want 1", ev.Diag.Level)
	}
}
