//go:build e2e

package system

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// hostReport is a booted machine's residue as the simulator reports it.
type hostReport struct {
	Clean bool `json:"clean"`
	fakehost.Report
}

// residue writes a tenant's residue into a booted machine's root (the
// simulator must run with simOptions.gpus) and returns what was written.
func (s *sim) residue(host string, r fakehost.Residue) fakehost.Injected {
	s.t.Helper()
	b, _ := json.Marshal(r)
	resp, err := http.Post(s.base+"/_sim/booted/"+host+"/residue", "application/json", bytes.NewReader(b))
	if err != nil {
		s.t.Fatalf("residue %s: %v", host, err)
	}
	defer resp.Body.Close()
	var in fakehost.Injected
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&in) != nil {
		s.t.Fatalf("residue %s: %s", host, resp.Status)
	}
	return in
}

// hostResidue reports the residue left on a booted machine.
func (s *sim) hostResidue(host string) hostReport {
	s.t.Helper()
	resp, err := http.Get(s.base + "/_sim/booted/" + host + "/residue")
	if err != nil {
		s.t.Fatalf("residue %s: %v", host, err)
	}
	defer resp.Body.Close()
	var r hostReport
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&r) != nil {
		s.t.Fatalf("residue %s: %s", host, resp.Status)
	}
	return r
}

// waitClean waits until the machine has no residue left and fails the
// test with what is left after timeout.
func (s *sim) waitClean(host string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r := s.hostResidue(host)
		if r.Clean {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s still has residue after %s: %+v", host, timeout, r.Report)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestResidueOnAnOnboardedMachine: a machine onboarded to active boots
// with eight fake NVIDIA GPUs and the fake host tools on its PATH and no
// residue; residue written through the simulator is then reported, item
// by item, for the decommission tests to see cleared.
func TestResidueOnAnOnboardedMachine(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	batch, _ := w.onboard(host)
	if watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch); watch.code != 0 {
		t.Fatalf("onboarding watch: %s", watch)
	}
	if st := w.nodes()[host]; st != "active" {
		t.Fatalf("%s is %q, want active", host, st)
	}
	w.sim.waitClean(host, 10*time.Second)
	in := w.sim.residue(host, fakehost.Residue{User: "tenant1", Process: true, Mount: "/mnt/tenant",
		GPUMemoryMiB: 4096, ScratchFile: true, StuckGPU: true})
	r := w.sim.hostResidue(host)
	got := [5]int{len(r.Users), len(r.Processes), len(r.Mounts), len(r.Files), len(r.GPUs)}
	if r.Clean || in.UID < 1000 || len(in.PIDs) != 1 || got != [5]int{1, 1, 1, 2, 1} {
		t.Errorf("injected %+v, reported %+v; want one user, process, mount and GPU and two files", in, r)
	}
}
