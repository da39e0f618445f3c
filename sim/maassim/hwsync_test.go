package maassim_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
)

// get_config and set_config of hardware_sync_interval answer as
// api/maas.py does: the value JSON-encoded, 200 "OK", MAAS's 400s.
func TestHardwareSyncIntervalConfig(t *testing.T) {
	s := newSite(t, 0)
	const p = "/MAAS/api/2.0/maas/"
	get := func() resp {
		return s.call(t, "GET", p, url.Values{"op": {"get_config"}, "name": {"hardware_sync_interval"}})
	}
	if r := get(); r.code != 200 || r.body != `"15m"` || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("default: %d %q %s", r.code, r.body, r.header.Get("Content-Type"))
	}
	set := func(form url.Values) resp { form.Set("op", "set_config"); return s.call(t, "POST", p, form) }
	if r := set(url.Values{"name": {"hardware_sync_interval"}, "value": {"1h 30min"}}); r.code != 200 || r.body != "OK" {
		t.Fatalf("set: %d %q", r.code, r.body)
	}
	if r := get(); r.body != `"1h 30min"` {
		t.Fatalf("after set: %q", r.body)
	}
	for _, tc := range []struct {
		name string
		form url.Values
		code int
		body string
	}{
		{"bad unit", url.Values{"name": {"hardware_sync_interval"}, "value": {"1d"}}, 400,
			`{"hardware_sync_interval":["value is not a valid interval: 1d, only 'h|hr|hour|hours, m|min|minute|minutes, s|sec|second|seconds' are valid units"]}`},
		{"no name", url.Values{"value": {"5m"}}, 400, "No provided name!"},
		{"no value", url.Values{"name": {"hardware_sync_interval"}}, 400, "No provided value!"},
		{"unknown item", url.Values{"name": {"nope"}, "value": {"x"}}, 400, `{"nope":["nope is not a valid config setting (valid settings are: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := set(tc.form)
			if r.code != tc.code || !strings.HasPrefix(r.body, tc.body) {
				t.Fatalf("%d %s, want %d %s", r.code, r.body, tc.code, tc.body)
			}
		})
	}
	if r := get(); r.body != `"1h 30min"` {
		t.Fatalf("a refused set changed the value: %q", r.body)
	}
}

// enable_hw_sync can be set with PUT on a Deployed machine, which then
// takes hardware_sync_interval as its sync_interval; MAAS refuses it on
// a machine without a Linux OS (one never deployed has none).
func TestEnableHWSyncOnADeployedMachine(t *testing.T) {
	s := newSite(t, 2)
	ids := s.ids(t)
	m := "/MAAS/api/2.0/machines/"
	if r := s.call(t, "PUT", m+ids[1]+"/", url.Values{"enable_hw_sync": {"true"}}); r.code != 400 ||
		strings.TrimSpace(r.body) != `{"enable_hw_sync":["Hardware sync is only supported for Linux based image deploys."]}` {
		t.Fatalf("Ready machine: %d %s", r.code, r.body)
	}
	mustPost(t, s, m+ids[0]+"/?op=deploy", nil)
	s.advance(time.Hour)
	if got := s.machine(t, ids[0]); got["status_name"] != "Deployed" || got["enable_hw_sync"] != false || got["sync_interval"] != nil {
		t.Fatalf("deployed without hardware sync: %v %v %v", got["status_name"], got["enable_hw_sync"], got["sync_interval"])
	}
	s.call(t, "POST", m[:len(m)-len("machines/")]+"maas/", url.Values{"op": {"set_config"}, "name": {"hardware_sync_interval"}, "value": {"5m"}})
	r := s.call(t, "PUT", m+ids[0]+"/", url.Values{"enable_hw_sync": {"True"}})
	var got map[string]any
	if r.code != 200 || json.Unmarshal([]byte(r.body), &got) != nil {
		t.Fatalf("PUT: %d %s", r.code, r.body)
	}
	if got["enable_hw_sync"] != true || got["sync_interval"] != float64(300) || got["status_name"] != "Deployed" {
		t.Fatalf("after PUT: %v %v %v", got["enable_hw_sync"], got["sync_interval"], got["status_name"])
	}
	if r := s.call(t, "PUT", m+ids[0]+"/", url.Values{"enable_hw_sync": {"false"}}); r.code != 200 || s.machine(t, ids[0])["enable_hw_sync"] != false {
		t.Fatalf("PUT false: %d %s", r.code, r.body)
	}
}

// rackcontrollers/ lists the region's controller with its version and
// service states.
func TestRackControllers(t *testing.T) {
	s := newSite(t, 0)
	r := s.call(t, "GET", "/MAAS/api/2.0/rackcontrollers/", nil)
	var rcs []struct {
		SystemID          string `json:"system_id"`
		Hostname, Version string
		ServiceSet        []struct{ Name, Status string } `json:"service_set"`
		NodeTypeName      string                          `json:"node_type_name"`
	}
	if r.code != 200 || json.Unmarshal([]byte(r.body), &rcs) != nil || len(rcs) != 1 {
		t.Fatalf("%d %s", r.code, r.body)
	}
	if rc := rcs[0]; rc.SystemID == "" || rc.Version != "3.6.5" || len(rc.ServiceSet) == 0 || rc.NodeTypeName == "" {
		t.Fatalf("%+v", rc)
	}
	if r := s.send(t, "GET", "/MAAS/api/2.0/rackcontrollers/", nil, ""); r.code != 401 {
		t.Fatalf("anonymous: %d %s", r.code, r.body)
	}
}
