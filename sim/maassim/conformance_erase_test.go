package maassim_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/juju/gomaasapi/v2"
)

// gomaasapi's generic layer drives the decommission calls: release with
// erase, abort into Failed disk erasing, release without erase, power_off
// and delete, each answer parsed by Canonical's client.
func TestGomaasapiDecommissionOps(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	client, err := gomaasapi.NewAuthenticatedClient(gomaasapi.AddAPIVersionToURL(st.srv.URL+"/MAAS/", "2.0"), testKey)
	if err != nil {
		t.Fatal(err)
	}
	obj := gomaasapi.NewMAAS(*client).GetSubObject("machines/" + sid + "/")
	status := func(o gomaasapi.JSONObject) string {
		m, err := o.GetMap()
		if err != nil {
			t.Fatalf("answer is not an object: %v", err)
		}
		s, _ := m["status_name"].GetString()
		return s
	}
	steps := []struct {
		op           string
		params       url.Values
		answer, then string
	}{
		{"release", url.Values{"erase": {"true"}, "quick_erase": {"true"}}, "Disk erasing", "Disk erasing"},
		{"abort", url.Values{"comment": {"stop"}}, "Disk erasing", "Failed disk erasing"},
		{"release", url.Values{"erase": {"false"}}, "Ready", "Ready"},
		{"power_off", url.Values{"stop_mode": {"soft"}}, "Ready", "Ready"},
	}
	for _, s := range steps {
		res, err := obj.CallPost(s.op, s.params)
		if err != nil {
			t.Fatalf("CallPost %s: %v", s.op, err)
		}
		if got := status(res); got != s.answer {
			t.Fatalf("%s answered %q, want %q", s.op, got, s.answer)
		}
		now, err := obj.Get()
		if got, _ := now.GetField("status_name"); err != nil || got != s.then {
			t.Fatalf("after %s: %q %v, want %q", s.op, got, err, s.then)
		}
		st.advance(time.Millisecond)
	}
	if err := obj.Delete(); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := obj.Get(); err == nil {
		t.Fatal("machine readable after Delete")
	}
}
