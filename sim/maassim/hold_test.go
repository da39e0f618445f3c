package maassim_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// postGivingUp sends a signed POST and gives up after wait, as a client
// killed mid-request does. It reports whether an answer arrived.
func (s *site) postGivingUp(t *testing.T, path string, form url.Values, wait time.Duration) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", oauth(testKey, s.clock.Now().Unix(), fmt.Sprint("hold-", nonceN.Add(1))))
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatal(err)
		}
		return false
	}
	r.Body.Close()
	return true
}

// A held answer never reaches a client that gives up first, yet MAAS has
// acted: the state changed before the answer would have arrived.
func TestHoldActsThenHoldsTheAnswer(t *testing.T) {
	cases := []struct {
		key, op string
		form    url.Values
		from    maassim.Status
		check   func(m map[string]any) bool
	}{
		{"deploy", "deploy", nil, maassim.StatusReady,
			func(m map[string]any) bool { return m["status_name"] == "Deploying" }},
		{"release", "release", nil, maassim.StatusDeployed,
			func(m map[string]any) bool { return m["status_name"] == "Releasing" }},
		{maassim.EraseOp, "release", url.Values{"erase": {"1"}, "quick_erase": {"1"}}, maassim.StatusDeployed,
			func(m map[string]any) bool { return m["status_name"] == "Disk erasing" }},
		{"power_off", "power_off", nil, maassim.StatusDeployed,
			func(m map[string]any) bool { return m["power_state"] == "off" }},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			st := newSite(t, 0)
			sid, err := st.sim.AddMachine(maassim.HostSpec{}, "", c.from)
			if err != nil {
				t.Fatal(err)
			}
			st.sim.SetOpFault(c.key, maassim.OpFault{Hold: time.Minute})
			if st.postGivingUp(t, machineOp(sid, c.op), c.form, 200*time.Millisecond) {
				t.Fatal("the answer was not held")
			}
			if m := st.machine(t, sid); !c.check(m) {
				t.Fatalf("MAAS did not act: %v, power %v", m["status_name"], m["power_state"])
			}
			h := st.sim.Holds()
			if h.Held[c.key] != 1 {
				t.Fatalf("holds %+v", h)
			}
			waitFor(t, func() bool { return st.sim.Holds().Holding == 0 })
		})
	}
}

// A patient client gets the answer after the hold, showing the new state.
func TestHoldAnswersAfterTheDelay(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	st.sim.SetOpFault("deploy", maassim.OpFault{Hold: 80 * time.Millisecond})
	start := time.Now()
	r := st.call(t, "POST", machineOp(sid, "deploy"), nil)
	if took := time.Since(start); r.code != 200 || took < 80*time.Millisecond {
		t.Fatalf("%d after %v", r.code, took)
	}
	if !strings.Contains(r.body, `"status_name":"Deploying"`) {
		t.Fatalf("answer %s", r.body)
	}
}

// The erase key holds only releases that erase; a plain release answers
// at once. Both are programmable over the control routes.
func TestHoldEraseKeyOverControlRoutes(t *testing.T) {
	st := newSite(t, 0)
	plain, _ := st.sim.AddMachine(maassim.HostSpec{}, "", maassim.StatusDeployed)
	erase, _ := st.sim.AddMachine(maassim.HostSpec{}, "", maassim.StatusDeployed)
	r, err := http.Post(st.srv.URL+"/_sim/faults/ops", "application/json",
		strings.NewReader(`{"op":"erase","hold_ms":60000}`))
	if err != nil || r.StatusCode != 204 {
		t.Fatalf("program hold: %v %v", r, err)
	}
	r.Body.Close()
	if !st.postGivingUp(t, machineOp(plain, "release"), nil, 2*time.Second) {
		t.Fatal("a plain release was held")
	}
	if st.postGivingUp(t, machineOp(erase, "release"), url.Values{"secure_erase": {"true"}}, 200*time.Millisecond) {
		t.Fatal("an erasing release was not held")
	}
	wantStatus(t, st, erase, "Disk erasing")
	r, err = http.Get(st.srv.URL + "/_sim/faults/holds")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var h maassim.HoldStats
	if err := json.NewDecoder(r.Body).Decode(&h); err != nil || h.Held["erase"] != 1 || h.Held["release"] != 0 {
		t.Fatalf("holds %+v %v", h, err)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not reached in 5s")
}
