package maassim_test

import (
	"net/url"
	"testing"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// op=power_off (api/nodes.py): any stop_mode but soft is a hard power-off,
// and a machine MAAS has no power control over answers null.
func TestPowerOff(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	r := st.call(t, "POST", machineOp(sid, "power_off"), url.Values{"stop_mode": {"whatever"}, "comment": {"decommission"}})
	if r.code != 200 || st.machine(t, sid)["power_state"] != "off" {
		t.Fatalf("power_off: %d %s", r.code, r.body)
	}
	types := st.sim.EventTypes(sid)
	if got := types[len(types)-2]; got != "User powering down node: (admin) - decommission" {
		t.Fatalf("request event %q", got)
	}
	r = st.call(t, "POST", "/MAAS/api/2.0/machines/", url.Values{"power_type": {"manual"},
		"mac_addresses": {"52:54:00:00:00:01"}, "hostname": {"manual-1"}})
	if r.code != 200 {
		t.Fatalf("create: %d %s", r.code, r.body)
	}
	manual := st.ids(t)[1]
	if r = st.call(t, "POST", machineOp(manual, "power_off"), nil); r.code != 200 || r.body != "null" {
		t.Fatalf("power_off without power control: %d %q", r.code, r.body)
	}
}

// DELETE machines/{id}/ answers 204 with no body, then 404 with MAAS's text.
func TestDeleteMachine(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	path := "/MAAS/api/2.0/machines/" + sid + "/"
	if r := st.call(t, "DELETE", path, nil); r.code != 204 || r.body != "" {
		t.Fatalf("delete: %d %q", r.code, r.body)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if r := st.call(t, m, path, nil); r.code != 404 || r.body != "No Machine matches the given query." {
			t.Fatalf("%s after delete: %d %q", m, r.code, r.body)
		}
	}
}
