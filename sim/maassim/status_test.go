package maassim_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Spot checks of MAAS 3.6.5 NODE_TRANSITIONS, both ways.
func TestCanTransitionMatchesMAAS(t *testing.T) {
	cases := []struct {
		from, to maassim.Status
		ok       bool
	}{
		{maassim.StatusNew, maassim.StatusCommissioning, true},
		{maassim.StatusNew, maassim.StatusDeploying, false},
		{maassim.StatusCommissioning, maassim.StatusTesting, true},
		{maassim.StatusTesting, maassim.StatusReady, true},
		{maassim.StatusReady, maassim.StatusAllocated, true},
		{maassim.StatusReady, maassim.StatusDeploying, false},
		{maassim.StatusAllocated, maassim.StatusDeploying, true},
		{maassim.StatusDeploying, maassim.StatusDeployed, true},
		{maassim.StatusDeployed, maassim.StatusCommissioning, false},
		{maassim.StatusDeployed, maassim.StatusDeploying, false},
		{maassim.StatusDeployed, maassim.StatusReleasing, true},
		{maassim.StatusReleasing, maassim.StatusNew, true},
		{maassim.StatusBroken, maassim.StatusDeployed, true},
		{maassim.StatusBroken, maassim.StatusDeploying, false},
		{maassim.StatusFailedDeployment, maassim.StatusDeploying, false},
		{maassim.StatusDiskErasing, maassim.StatusDiskErasing, true},
		{maassim.StatusRetired, maassim.StatusCommissioning, false},
	}
	for _, c := range cases {
		if got := maassim.CanTransition(c.from, c.to); got != c.ok {
			t.Errorf("%s -> %s = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
	if maassim.StatusFailedReleasing.String() != "Releasing failed" || maassim.Status(99).String() != "Unknown(99)" {
		t.Fatal("status names differ from MAAS's")
	}
}

var changeRE = regexp.MustCompile(`^Node changed status: From '(.+)' to '(.+?)'( \(to admin\))?$`)

// Every status change the simulator makes in a full lifecycle is legal,
// logged as MAAS logs it, and the path is MAAS's.
func TestLifecycleFollowsLegalTransitions(t *testing.T) {
	st := newSite(t, 0)
	r := st.call(t, "POST", "/MAAS/api/2.0/machines/", url.Values{"power_type": {"ipmi"},
		"power_parameters_power_address": {"10.1.0.9"}, "hostname": {"gpu-1"}})
	if r.code != 200 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	sid := st.ids(t)[0]
	if got := st.statusName(t, sid); got != "Commissioning" {
		t.Fatalf("after create: %s", got)
	}
	st.advance(time.Hour)
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", nil)
	st.advance(time.Hour)
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=release", url.Values{"erase": {"true"}, "quick_erase": {"true"}})
	st.advance(time.Hour)
	var path []string
	names := map[string]maassim.Status{}
	for _, s := range maassim.AllStatuses() {
		names[s.String()] = s
	}
	names["None"] = -1
	for _, e := range st.sim.EventTypes(sid) {
		m := changeRE.FindStringSubmatch(e)
		if m == nil {
			continue
		}
		path = append(path, m[2])
		if m[1] != "None" && !maassim.CanTransition(names[m[1]], names[m[2]]) {
			t.Errorf("illegal transition logged: %s", e)
		}
	}
	want := "New Commissioning Testing Ready Allocated Deploying Deployed Disk erasing Releasing Ready"
	if got := strings.Join(path, " "); got != want {
		t.Fatalf("path %q\nwant %q", got, want)
	}
}

func TestConflictTexts(t *testing.T) {
	st := newSite(t, 0)
	newID, _ := st.sim.AddMachine(maassim.HostSpec{}, "new-1", maassim.StatusNew)
	depID, _ := st.sim.AddMachine(maassim.HostSpec{}, "dep-1", maassim.StatusDeployed)
	readyID, _ := st.sim.AddMachine(maassim.HostSpec{}, "ready-1", maassim.StatusReady)
	m := "/MAAS/api/2.0/machines/"
	ifc := int(st.machine(t, depID)["interface_set"].([]any)[0].(map[string]any)["id"].(float64))
	disk := int(st.machine(t, depID)["blockdevice_set"].([]any)[0].(map[string]any)["id"].(float64))
	cases := []struct{ name, path, want string }{
		{"deploy New", m + newID + "/?op=deploy", "Can't deploy a machine that is in the 'New' state"},
		{"deploy Deployed", m + depID + "/?op=deploy", "Can't deploy a machine that is in the 'Deployed' state"},
		{"release New", m + newID + "/?op=release", "Machine cannot be released in its current state ('New')."},
		{"storage layout not Ready", m + depID + "/?op=set_storage_layout", "Cannot change the storage layout on a machine that is not Ready."},
		{"commission Deployed", m + depID + "/?op=commission", "Invalid transition: Deployed -> Commissioning."},
		{"abort Ready", m + readyID + "/?op=abort", "Cannot abort in current state: node " + readyID + " is in state Ready."},
		{"mark_fixed Ready", m + readyID + "/?op=mark_fixed", "Can't mark a non-broken node as 'Ready'."},
		{"power_on unowned", m + readyID + "/?op=power_on", "Can't start node: it hasn't been allocated."},
		{"link_subnet Deployed", fmtPath("/MAAS/api/2.0/nodes/%s/interfaces/%d/?op=link_subnet", depID, ifc),
			"Cannot link subnet interface because the machine is not New, Ready, Allocated, or Broken."},
		{"set_boot_disk Deployed", fmtPath("/MAAS/api/2.0/nodes/%s/blockdevices/%d/?op=set_boot_disk", depID, disk),
			"Cannot set as boot disk because the machine is not Ready."},
		{"accept Deployed", m + "?op=accept", "Cannot accept node enlistment: node " + depID + " is in state Deployed."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := url.Values{"storage_layout": {"flat"}, "mode": {"AUTO"}, "subnet": {"1"}, "machines": {depID}}
			r := st.call(t, "POST", c.path, form)
			if r.code != 409 || r.body != c.want {
				t.Fatalf("got %d %q\nwant 409 %q", r.code, r.body, c.want)
			}
		})
	}
	t.Run("release Ready is a no-op", func(t *testing.T) {
		if r := st.call(t, "POST", m+readyID+"/?op=release", nil); r.code != 200 || st.statusName(t, readyID) != "Ready" {
			t.Fatalf("%d %s", r.code, r.body)
		}
	})
}
