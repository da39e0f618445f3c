package workflow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The PXE discovery claim of seed 001 §4.3 and §4.16: MAAS refuses to
// create the machine, the run PXE-boots its BMC, exactly one New machine
// (whose BMC enlistment did not detect) appears during the run, and the
// run claims it, names it, sets its BMC and accepts it.
func TestPXEDiscoveryClaimsTheMachineThatAppeared(t *testing.T) {
	s := newSite(t)
	s.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
	const mac = "52:54:00:07:00:01"
	s.host("10.0.7.1", maassim.HostSpec{PXEMAC: mac, NoBMCDetect: true})
	r := s.wait(s.onboard("c08u01", "10.0.7.1"), 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	if d := s.detail(r.ID, lifecycle.StageCreateOrFindInMaas, "claimed"); d != "discovered during this run" {
		t.Fatalf("claimed %q, want discovered during this run\n%s", d, s.events(r.ID))
	}
	sid := r.MaasSystemID
	want := map[string]int{"POST /MAAS/api/2.0/machines/ ": 1, "PUT /MAAS/api/2.0/machines/" + sid + "/ ": 1,
		"POST /MAAS/api/2.0/machines/ accept": 1, "POST /MAAS/api/2.0/machines/" + sid + "/ commission": 0,
		"POST /MAAS/api/2.0/machines/" + sid + "/ deploy": 1}
	s.log.expect(t, want)
	if got := s.log.passes(); len(got) != 1 || got[0] != "bmc-pass-1" {
		t.Errorf("identify sent BMC passwords %d times, want once the resolved one", len(got))
	}
	m, err := s.client(t).Machine(context.Background(), sid)
	must(t, err)
	addrs, err := s.client(t).PowerAddresses(context.Background(), sid)
	must(t, err)
	if m.Hostname != "c08u01" || addrs[sid] != "10.0.7.1" || m.BootMAC != mac {
		t.Errorf("machine %s: hostname %s, BMC %q, boot MAC %s", sid, m.Hostname, addrs[sid], m.BootMAC)
	}
	n, err := s.store.GetNode(context.Background(), r.NodeID)
	must(t, err)
	if r.Vars["pxe_mac"] != mac || n.PXEMac != mac || n.Status != lifecycle.NodeActive {
		t.Errorf("run pxe_mac %q, node %s pxe_mac %q, want %s", r.Vars["pxe_mac"], n.Status, n.PXEMac, mac)
	}
}

// A pxe_mac override (seed 001 §3.2.1, first in the selection order)
// becomes usable once the run knows the MAC: the creation still used the
// hostname override, the identification of the discovered machine uses
// the pxe_mac one.
func TestPXEMacOverrideIdentifiesTheDiscoveredMachine(t *testing.T) {
	s := newSite(t)
	s.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
	const mac = "52:54:00:07:00:02"
	s.host("10.0.7.2", maassim.HostSpec{PXEMAC: mac, NoBMCDetect: true})
	s.override("ovr-host", lifecycle.SelectHostname, "c08u02", "host-pass")
	s.override("ovr-mac", lifecycle.SelectPXEMac, strings.ToUpper(mac), "mac-pass")
	r := s.wait(s.onboard("c08u02", "10.0.7.2"), 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	s.log.mu.Lock()
	created := append([]string{}, s.log.bmcPass...)
	s.log.mu.Unlock()
	identified := s.log.passes()
	if len(created) != 1 || created[0] != "host-pass" || len(identified) != 1 || identified[0] != "mac-pass" {
		t.Errorf("create sent %d passwords (host override wanted), identify %d (pxe_mac override wanted)", len(created), len(identified))
	}
	if r.Vars["power_override_id"] != "ovr-mac" || r.Vars["pxe_mac"] != mac {
		t.Errorf("run vars %v, want the pxe_mac override and the MAC", r.Vars)
	}
}

// override stores an active power credential override whose secret holds
// pass.
func (s *site) override(id string, by lifecycle.SelectorType, value, pass string) {
	path := "kv/maas-sites/site-1/power/overrides/" + id
	_, err := s.store.CreatePowerOverride(context.Background(), lifecycle.PowerOverride{ID: id, SiteID: "site-1",
		SelectorType: by, SelectorValue: value, VaultPath: path})
	must(s.t, err)
	s.secrets.put(path, map[string]string{"user": "root", "pass": pass})
}

// detail is the newest value of key in the details of stage's events.
func (s *site) detail(id string, stage lifecycle.Stage, key string) string {
	evs, err := s.store.ListRunEvents(context.Background(), id, 0, 0)
	must(s.t, err)
	v := ""
	for _, e := range evs {
		if e.Stage == stage && e.Details[key] != "" {
			v = e.Details[key]
		}
	}
	return v
}

// expect checks how often each call (method, path, op) was made.
func (l *requestLog) expect(t *testing.T, want map[string]int) {
	t.Helper()
	l.mu.Lock()
	got := map[string]int{}
	for _, c := range l.calls {
		got[c]++
	}
	l.mu.Unlock()
	for call, n := range want {
		if got[call] != n {
			t.Errorf("%q made %d times, want %d", call, got[call], n)
		}
	}
}

// passes is the BMC password of every machine update, in order.
func (l *requestLog) passes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string{}, l.identPass...)
}
