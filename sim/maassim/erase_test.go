package maassim_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// deployed seeds a Deployed machine on its own BMC address.
func deployed(t *testing.T, st *site, spec maassim.HostSpec) string {
	t.Helper()
	sid, err := st.sim.AddMachine(spec, "", maassim.StatusDeployed)
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

func machineOp(sid, op string) string { return "/MAAS/api/2.0/machines/" + sid + "/?op=" + op }

// eventsSince returns sid's events after the first n, as "type: description".
func eventsSince(st *site, sid string, n int) []string {
	return st.sim.EventTypes(sid)[n:]
}

// At speed 100, erase methods take (unscaled) full 10m, quick 2m, secure
// 4m; secure falls back as wipe-disks does on drives without the feature.
func TestEraseDurationByMethod(t *testing.T) {
	cases := []struct {
		name   string
		params url.Values
		noSE   bool
		unscal time.Duration
	}{
		{"erase alone overwrites the disk", url.Values{"erase": {"true"}}, false, 10 * time.Minute},
		{"quick_erase implies erase", url.Values{"quick_erase": {"1"}}, false, 2 * time.Minute},
		{"secure_erase", url.Values{"erase": {"1"}, "secure_erase": {"1"}}, false, 4 * time.Minute},
		{"secure without the feature overwrites", url.Values{"secure_erase": {"1"}}, true, 10 * time.Minute},
		{"secure and quick without the feature is quick", url.Values{"secure_erase": {"1"}, "quick_erase": {"1"}}, true, 2 * time.Minute},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newSite(t, 0)
			sid := deployed(t, st, maassim.HostSpec{NoSecureErase: c.noSE})
			mustPost(t, st, machineOp(sid, "release"), c.params)
			m := st.machine(t, sid)
			if m["status_name"] != "Disk erasing" || m["power_state"] != "on" {
				t.Fatalf("after release: %v, power %v", m["status_name"], m["power_state"])
			}
			d := c.unscal / 100
			st.advance(d - time.Millisecond)
			wantStatus(t, st, sid, "Disk erasing")
			st.advance(2 * time.Millisecond)
			if m = st.machine(t, sid); m["status_name"] != "Releasing" || m["power_state"] != "off" {
				t.Fatalf("after erase: %v, power %v", m["status_name"], m["power_state"])
			}
			st.advance(time.Minute / 100)
			if m = st.machine(t, sid); m["status_name"] != "Ready" || m["owner"] != nil || m["osystem"] != "" {
				t.Fatalf("after release: %v owner %v os %v", m["status_name"], m["owner"], m["osystem"])
			}
		})
	}
}

// The events of a release with erase are MAAS's, in MAAS's order.
func TestEraseEvents(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	n := len(st.sim.EventTypes(sid))
	mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}, "quick_erase": {"1"}, "comment": {"tenant gone"}})
	st.advance(2 * time.Minute / 100)
	st.advance(time.Minute / 100)
	want := []string{
		"User erasing disk: (admin) - tenant gone",
		"Node changed status: From 'Deployed' to 'Disk erasing'",
		"Disks erased: ",
		"User releasing node: ",
		"Node changed status: From 'Disk erasing' to 'Releasing'",
		"Releasing: ",
		"Node powered off: ",
		"Node changed status: From 'Releasing' to 'Ready'",
		"Released: ",
	}
	if d := cmp.Diff(want, eventsSince(st, sid, n)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
}

// A disk-erase failure ends in Failed disk erasing with MAAS's texts, and
// every way in and out of that status answers as MAAS 3.6 does.
func TestFailedDiskErasing(t *testing.T) {
	failed := func(t *testing.T) (*site, string) {
		t.Helper()
		st := newSite(t, 0)
		sid := deployed(t, st, maassim.HostSpec{})
		if err := st.sim.FailNextErase(context.Background(), sid, 1); err != nil {
			t.Fatal(err)
		}
		n := len(st.sim.EventTypes(sid))
		mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}})
		st.advance(time.Hour)
		m := st.machine(t, sid)
		if m["status_name"] != "Failed disk erasing" || m["error_description"] != "Failed to erase disks." ||
			m["power_state"] != "on" {
			t.Fatalf("after failed erase: %v %q power %v", m["status_name"], m["error_description"], m["power_state"])
		}
		want := []string{"User erasing disk: (admin)", "Node changed status: From 'Deployed' to 'Disk erasing'",
			"Marking node failed: Failed to erase disks.", "Node changed status: From 'Disk erasing' to 'Failed disk erasing'"}
		if d := cmp.Diff(want, eventsSince(st, sid, n)); d != "" {
			t.Fatalf("events (-want +got):\n%s", d)
		}
		return st, sid
	}
	refusals := []struct{ op, want string }{
		{"deploy", "Can't deploy a machine that is in the 'Failed disk erasing' state"},
		{"mark_fixed", "Can't mark a non-broken node as 'Ready'."},
		{"abort", "Cannot abort in current state: node %s is in state Failed disk erasing."},
		{"commission", "Invalid transition: Failed disk erasing -> Commissioning."},
	}
	for _, c := range refusals {
		t.Run(c.op+" refused", func(t *testing.T) {
			st, sid := failed(t)
			want := c.want
			if c.op == "abort" {
				want = fmt.Sprintf(c.want, sid)
			}
			if r := st.call(t, "POST", machineOp(sid, c.op), nil); r.code != 409 || r.body != want {
				t.Fatalf("got %d %q\nwant 409 %q", r.code, r.body, want)
			}
			wantStatus(t, st, sid, "Failed disk erasing")
		})
	}
	t.Run("release again with erase", func(t *testing.T) {
		st, sid := failed(t)
		mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}, "quick_erase": {"1"}})
		wantStatus(t, st, sid, "Disk erasing")
		st.advance(time.Hour)
		wantStatus(t, st, sid, "Ready")
	})
	t.Run("release without erase", func(t *testing.T) {
		st, sid := failed(t)
		mustPost(t, st, machineOp(sid, "release"), nil)
		wantStatus(t, st, sid, "Releasing")
		st.advance(time.Hour)
		if m := st.machine(t, sid); m["status_name"] != "Ready" || m["power_state"] != "off" {
			t.Fatalf("%v power %v", m["status_name"], m["power_state"])
		}
	})
	t.Run("mark broken then fixed is Ready", func(t *testing.T) {
		st, sid := failed(t)
		mustPost(t, st, machineOp(sid, "mark_broken"), url.Values{"comment": {"bad nvme"}})
		mustPost(t, st, machineOp(sid, "mark_fixed"), nil)
		wantStatus(t, st, sid, "Ready")
	})
}

// Abort during Disk erasing powers off and answers Disk erasing; MAAS
// moves the machine to Failed disk erasing after the answer, and the erase
// never completes. Released from there while off, it is Ready at once.
func TestAbortDiskErasing(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}})
	n := len(st.sim.EventTypes(sid))
	r := st.call(t, "POST", machineOp(sid, "abort"), url.Values{"comment": {"too slow"}})
	if r.code != 200 || !strings.Contains(r.body, `"status_name":"Disk erasing"`) {
		t.Fatalf("abort answer: %d %s", r.code, r.body)
	}
	if m := st.machine(t, sid); m["status_name"] != "Failed disk erasing" || m["power_state"] != "off" {
		t.Fatalf("after abort: %v power %v", m["status_name"], m["power_state"])
	}
	st.advance(time.Hour)
	wantStatus(t, st, sid, "Failed disk erasing")
	want := []string{"User aborting disk erase: (admin) - too slow", "Aborted disk erasing: ",
		"Node powered off: ", "Node changed status: From 'Disk erasing' to 'Failed disk erasing'"}
	if d := cmp.Diff(want, eventsSince(st, sid, n)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	r = st.call(t, "POST", machineOp(sid, "release"), nil)
	if r.code != 200 || !strings.Contains(r.body, `"status_name":"Ready"`) {
		t.Fatalf("release of a powered-off machine: %d %s", r.code, r.body)
	}
}

// While Disk erasing, deploy and release are refused with MAAS's texts.
func TestDiskErasingRefusals(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}})
	cases := []struct{ op, want string }{
		{"deploy", "Can't deploy a machine that is in the 'Disk erasing' state"},
		{"release", "Machine cannot be released in its current state ('Disk erasing')."},
		{"mark_fixed", "Can't mark a non-broken node as 'Ready'."},
	}
	for _, c := range cases {
		if r := st.call(t, "POST", machineOp(sid, c.op), nil); r.code != 409 || r.body != c.want {
			t.Errorf("%s: got %d %q, want 409 %q", c.op, r.code, r.body, c.want)
		}
	}
}

// A BMC that cannot power the machine on fails the erase at once, and one
// that cannot power it off leaves an aborted erase in Disk erasing.
func TestErasePowerFailures(t *testing.T) {
	t.Run("power on fails", func(t *testing.T) {
		st := newSite(t, 0)
		sid := deployed(t, st, maassim.HostSpec{PowerAddress: "10.9.0.1"})
		st.sim.SetBMC("10.9.0.1", 0, true)
		mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}})
		if m := st.machine(t, sid); m["status_name"] != "Failed disk erasing" || m["power_state"] != "error" {
			t.Fatalf("%v power %v", m["status_name"], m["power_state"])
		}
	})
	t.Run("abort's power off fails", func(t *testing.T) {
		st := newSite(t, 0)
		sid := deployed(t, st, maassim.HostSpec{PowerAddress: "10.9.0.2"})
		mustPost(t, st, machineOp(sid, "release"), url.Values{"erase": {"1"}})
		st.sim.SetBMC("10.9.0.2", 0, true)
		mustPost(t, st, machineOp(sid, "abort"), nil)
		st.advance(time.Hour)
		wantStatus(t, st, sid, "Disk erasing")
	})
}

// Every status change of an erase sends a webhook hint, in order.
func TestEraseWebhooks(t *testing.T) {
	st := newSite(t, 0)
	sid := deployed(t, st, maassim.HostSpec{})
	rc := &receiver{}
	hs := httptest.NewServer(rc)
	defer hs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go st.sim.Run(ctx)
	st.sim.SetWebhooks([]maassim.WebhookTarget{{URL: hs.URL, Secret: "s3cret"}}, maassim.WebhookFaults{})
	mustPost(t, st, machineOp(sid, "release"), url.Values{"quick_erase": {"1"}})
	st.advance(time.Hour)
	var got []string
	waitFor(t, func() bool {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		got = got[:0]
		for _, h := range rc.hints {
			if h.Type == "machine.status_changed" && h.SystemID == sid {
				got = append(got, h.StatusName)
			}
		}
		return len(got) >= 3
	})
	if d := cmp.Diff([]string{"Disk erasing", "Releasing", "Ready"}, got); d != "" {
		t.Fatalf("hints (-want +got):\n%s", d)
	}
}
