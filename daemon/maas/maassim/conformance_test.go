package maassim_test

import (
	"testing"

	"github.com/juju/gomaasapi/v2"
)

// TestGomaasapiConformance drives Canonical's Go client against the
// simulator: its strict schemas and OAuth signing must be satisfied.
func TestGomaasapiConformance(t *testing.T) {
	st := newSite(t, 3)
	ctrl, err := gomaasapi.NewController(gomaasapi.ControllerArgs{BaseURL: st.srv.URL + "/MAAS/", APIKey: testKey})
	if err != nil {
		t.Fatalf("NewController: %v", err)
	}
	all, err := ctrl.Machines(gomaasapi.MachinesArgs{})
	if err != nil {
		t.Fatalf("Machines: %v", err)
	}
	if len(all) != 3 {
		t.Fatalf("got %d machines, want 3", len(all))
	}
	one, err := ctrl.Machines(gomaasapi.MachinesArgs{SystemIDs: []string{all[1].SystemID()}})
	if err != nil || len(one) != 1 || one[0].Hostname() != all[1].Hostname() {
		t.Fatalf("filter by id: %v %v", one, err)
	}
	t.Logf("%s %s %v", one[0].StatusName(), one[0].FQDN(), one[0].InterfaceSet()[0].Links())
}
