package maassim_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestArchitecture: machines report their host's architecture (amd64 by
// default, arm64 for a Grace host) however they reach MAAS: seeded,
// enlisted by a PXE boot of a host racked over the control route, or
// created with or without the architecture parameter.
func TestArchitecture(t *testing.T) {
	st := newSite(t, 1)
	amd := st.ids(t)[0]
	arm, err := st.sim.AddMachine(maassim.HostSpec{Arch: "arm64/generic"}, "grace-1", maassim.StatusReady)
	if err != nil {
		t.Fatal(err)
	}
	post := func(path, body string) int {
		r, err := http.Post(st.srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if c := post("/_sim/hosts", `{"power_address":"10.3.3.4","architecture":"ppc64el"}`); c != http.StatusBadRequest {
		t.Fatalf("unknown architecture racked: %d", c)
	}
	if c := post("/_sim/hosts", `{"power_address":"10.3.3.3","architecture":"arm64"}`); c != http.StatusNoContent {
		t.Fatalf("hosts: %d", c)
	}
	if c := post("/_sim/hosts/10.3.3.3/pxe-boot", ``); c != http.StatusNoContent {
		t.Fatalf("pxe-boot: %d", c)
	}
	st.advance(time.Second)
	st.advance(3 * time.Second)
	var enlisted string
	for _, sid := range st.ids(t) {
		if sid != amd && sid != arm {
			enlisted = sid
		}
	}
	if enlisted == "" {
		t.Fatal("the racked host did not enlist")
	}
	create := func(form url.Values) string {
		r := st.call(t, "POST", "/MAAS/api/2.0/machines/", form)
		if r.code != 200 {
			t.Fatalf("create %v: %d %s", form, r.code, r.body)
		}
		var m struct {
			SystemID string `json:"system_id"`
		}
		if err := json.Unmarshal([]byte(r.body), &m); err != nil {
			t.Fatal(err)
		}
		return m.SystemID
	}
	ipmi := url.Values{"power_type": {"ipmi"}, "power_parameters_power_address": {"10.3.3.3"}, "commission": {"false"}}
	onGrace := create(ipmi) // the BMC of the arm64 host: its architecture
	ipmi.Set("power_parameters_power_address", "10.3.3.9")
	ipmi.Set("architecture", "arm64")
	named := create(ipmi)
	for sid, want := range map[string]string{amd: "amd64/generic", arm: "arm64/generic", enlisted: "arm64/generic",
		onGrace: "arm64/generic", named: "arm64/generic"} {
		if got := st.machine(t, sid)["architecture"]; got != want {
			t.Errorf("machine %s: architecture %v, want %s", sid, got, want)
		}
	}
	ipmi.Set("architecture", "ppc64el")
	if r := st.call(t, "POST", "/MAAS/api/2.0/machines/", ipmi); r.code != 400 || !strings.Contains(r.body, "architecture") {
		t.Errorf("ppc64el created: %d %s", r.code, r.body)
	}
}
