package maassim_test

import (
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/juju/gomaasapi/v2"
)

// TestGomaasapiConformance drives Canonical's Go client (LGPL, test-only)
// against the simulator: its strict schemas, OAuth signing and its habit of
// following resource_uris must all be satisfied.
func TestGomaasapiConformance(t *testing.T) {
	st := newSite(t, 3)
	ctrl, err := gomaasapi.NewController(gomaasapi.ControllerArgs{BaseURL: st.srv.URL + "/MAAS/", APIKey: testKey})
	if err != nil {
		t.Fatalf("NewController: %v", err)
	}
	all, err := ctrl.Machines(gomaasapi.MachinesArgs{})
	if err != nil || len(all) != 3 {
		t.Fatalf("Machines: %d %v", len(all), err)
	}
	m := all[1]
	mac := m.InterfaceSet()[0].MACAddress()
	for name, args := range map[string]gomaasapi.MachinesArgs{
		"id": {SystemIDs: []string{m.SystemID()}}, "hostname": {Hostnames: []string{m.Hostname()}},
		"mac": {MACAddresses: []string{mac}},
	} {
		got, err := ctrl.Machines(args)
		if err != nil || len(got) != 1 || got[0].SystemID() != m.SystemID() {
			t.Fatalf("filter %s: %v %v", name, got, err)
		}
	}
	checkFields(t, m)
	linkUnlink(t, ctrl, m)
	genericOps(t, st, ctrl, m.SystemID())
}

func checkFields(t *testing.T, m gomaasapi.Machine) {
	t.Helper()
	if m.StatusName() != "Ready" || m.FQDN() != m.Hostname()+".maas" || m.Zone().Name() != "default" ||
		m.Memory() == 0 || m.CPUCount() == 0 || len(m.BlockDevices()) != 5 || m.BootInterface() == nil {
		t.Fatalf("machine fields: %s %s %d %d %d", m.StatusName(), m.FQDN(), m.Memory(), m.CPUCount(), len(m.BlockDevices()))
	}
	pxe := m.InterfaceSet()[0]
	if pxe.Type() != "physical" || !pxe.Enabled() || pxe.VLAN() == nil || pxe.EffectiveMTU() != 1500 ||
		len(pxe.Links()) != 1 || pxe.Links()[0].Mode() != "auto" || pxe.Links()[0].Subnet().CIDR() != "10.16.0.0/16" {
		t.Fatalf("interface fields: %+v", pxe)
	}
}

func linkUnlink(t *testing.T, ctrl gomaasapi.Controller, m gomaasapi.Machine) {
	t.Helper()
	pxe := m.InterfaceSet()[0]
	subnet := pxe.Links()[0].Subnet()
	if err := pxe.UnlinkSubnet(subnet); err != nil {
		t.Fatalf("UnlinkSubnet: %v", err)
	}
	if len(pxe.Links()) != 0 {
		t.Fatalf("links after unlink: %v", pxe.Links())
	}
	if err := pxe.LinkSubnet(gomaasapi.LinkSubnetArgs{Mode: gomaasapi.LinkModeStatic, Subnet: subnet, IPAddress: "10.16.9.9"}); err != nil {
		t.Fatalf("LinkSubnet: %v", err)
	}
	if l := pxe.Links(); len(l) != 1 || l[0].IPAddress() != "10.16.9.9" {
		t.Fatalf("links after link: %v", l)
	}
}

func genericOps(t *testing.T, st *site, ctrl gomaasapi.Controller, sid string) {
	t.Helper()
	client, err := gomaasapi.NewAuthenticatedClient(gomaasapi.AddAPIVersionToURL(st.srv.URL+"/MAAS/", "2.0"), testKey)
	if err != nil {
		t.Fatal(err)
	}
	obj := gomaasapi.NewMAAS(*client).GetSubObject("machines/" + sid + "/")
	tok, err := obj.CallGet("get_token", nil)
	if err != nil || !tok.IsNil() {
		t.Fatalf("get_token before deploy: %v %v", tok, err)
	}
	steps := []struct {
		op     string
		params url.Values
		want   string
	}{
		{"commission", url.Values{"enable_ssh": {"1"}, "skip_bmc_config": {"1"}}, "Commissioning"},
		{"deploy", url.Values{"distro_series": {"jammy"}, "enable_hw_sync": {"true"}}, "Deploying"},
		{"release", url.Values{"erase": {"false"}}, "Releasing"},
	}
	for _, s := range steps {
		res, err := obj.CallPost(s.op, s.params)
		if err != nil {
			t.Fatalf("CallPost %s: %v", s.op, err)
		}
		m, _ := res.GetMap()
		if got, _ := m["status_name"].GetString(); got != s.want {
			t.Fatalf("%s: status %q, want %q", s.op, got, s.want)
		}
		if s.op == "deploy" {
			tok, err := obj.CallGet("get_token", nil)
			var v map[string]string
			b, _ := tok.MarshalJSON()
			if err != nil || json.Unmarshal(b, &v) != nil || v["token_secret"] == "" {
				t.Fatalf("get_token after deploy: %s %v", b, err)
			}
		}
		st.advance(time.Minute)
	}
}
