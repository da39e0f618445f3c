package maassim_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func TestOpFaults(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	path := "/MAAS/api/2.0/machines/" + sid + "/"
	t.Run("error rate 1 gives 503 on that op only", func(t *testing.T) {
		st.sim.SetOpFault("GET machine", maassim.OpFault{ErrorRate: 1})
		defer st.sim.SetOpFault("GET machine", maassim.OpFault{})
		if r := st.call(t, "GET", path, nil); r.code != 503 {
			t.Fatalf("%d %s", r.code, r.body)
		}
		if r := st.call(t, "GET", "/MAAS/api/2.0/machines/", nil); r.code != 200 {
			t.Fatalf("other op: %d", r.code)
		}
	})
	t.Run("a chosen status instead of 503", func(t *testing.T) {
		st.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
		defer st.sim.SetOpFault("POST machines", maassim.OpFault{})
		if r := st.call(t, "POST", "/MAAS/api/2.0/machines/", nil); r.code != 400 {
			t.Fatalf("%d %s", r.code, r.body)
		}
	})
	t.Run("latency", func(t *testing.T) {
		st.sim.SetOpFault("deploy", maassim.OpFault{Latency: 50 * time.Millisecond})
		defer st.sim.SetOpFault("deploy", maassim.OpFault{})
		start := time.Now()
		st.call(t, "POST", path+"?op=deploy", nil)
		if time.Since(start) < 50*time.Millisecond {
			t.Fatal("no latency")
		}
	})
	t.Run("timeout hangs until the client gives up", func(t *testing.T) {
		st.sim.SetOpFault("query_power_state", maassim.OpFault{Timeout: true})
		defer st.sim.SetOpFault("query_power_state", maassim.OpFault{})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", st.srv.URL+path+"?op=query_power_state", nil)
		if _, err := http.DefaultClient.Do(req); err == nil {
			t.Fatal("request did not time out")
		}
	})
}

func TestMachineFaults(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		setup func(t *testing.T, st *site, sid string) error
		check func(t *testing.T, st *site, sid string)
	}{
		{"commissioning failure", func(t *testing.T, st *site, sid string) error {
			if err := st.sim.FailNextCommissioning(ctx, sid, 1); err != nil {
				return err
			}
			mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=commission", nil)
			st.advance(time.Hour)
			return nil
		}, func(t *testing.T, st *site, sid string) { wantStatus(t, st, sid, "Failed commissioning") }},
		{"deploy failure with datasource events", func(t *testing.T, st *site, sid string) error {
			if err := st.sim.FailNextDeployment(ctx, sid, 1); err != nil {
				return err
			}
			mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", nil)
			st.advance(time.Hour)
			return nil
		}, func(t *testing.T, st *site, sid string) {
			wantStatus(t, st, sid, "Failed deployment")
			p, _, _ := st.events(t, url.Values{"level": {"ERROR"}, "id": {sid}})
			if len(p.Events) == 0 || p.Events[0].Type != "Node installation failure" {
				t.Fatalf("events %+v", p.Events)
			}
			if !strings.Contains(st.machine(t, sid)["error_description"].(string), "no datasource") {
				t.Fatal("error_description lacks the datasource failure")
			}
		}},
		{"missing BOSS", func(t *testing.T, st *site, sid string) error { return st.sim.RemoveBOSS(ctx, sid) },
			func(t *testing.T, st *site, sid string) {
				for _, d := range st.machine(t, sid)["blockdevice_set"].([]any) {
					if strings.Contains(d.(map[string]any)["model"].(string), "BOSS") {
						t.Fatal("BOSS still present")
					}
				}
			}},
		{"PXE NIC unlinked", func(t *testing.T, st *site, sid string) error { return st.sim.UnlinkPXE(ctx, sid) },
			func(t *testing.T, st *site, sid string) {
				boot := st.machine(t, sid)["boot_interface"].(map[string]any)
				if n := len(boot["links"].([]any)); n != 0 {
					t.Fatalf("%d links remain", n)
				}
			}},
		{"out-of-band release", func(t *testing.T, st *site, sid string) error { return deployThen(t, st, sid, st.sim.ReleaseOutOfBand) },
			func(t *testing.T, st *site, sid string) { wantStatus(t, st, sid, "Releasing") }},
		{"out-of-band delete", func(t *testing.T, st *site, sid string) error { return st.sim.DeleteOutOfBand(ctx, sid) },
			func(t *testing.T, st *site, sid string) {
				if r := st.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/", nil); r.code != 404 {
					t.Fatalf("%d", r.code)
				}
			}},
		{"out-of-band redeploy", func(t *testing.T, st *site, sid string) error {
			return deployThen(t, st, sid, st.sim.RedeployOutOfBand)
		},
			func(t *testing.T, st *site, sid string) { wantStatus(t, st, sid, "Deploying") }},
		{"out-of-band power off", func(t *testing.T, st *site, sid string) error {
			return deployThen(t, st, sid, st.sim.PowerOffOutOfBand)
		},
			func(t *testing.T, st *site, sid string) {
				if ps := st.machine(t, sid)["power_state"]; ps != "off" {
					t.Fatalf("power_state %v", ps)
				}
			}},
		{"out-of-band mark broken", func(t *testing.T, st *site, sid string) error {
			return st.sim.MarkBrokenOutOfBand(ctx, sid, "fan failure")
		}, func(t *testing.T, st *site, sid string) { wantStatus(t, st, sid, "Broken") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newSite(t, 1)
			sid := st.ids(t)[0]
			if err := c.setup(t, st, sid); err != nil {
				t.Fatal(err)
			}
			c.check(t, st, sid)
		})
	}
}

func deployThen(t *testing.T, st *site, sid string, fn func(context.Context, string) error) error {
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", nil)
	st.advance(time.Hour)
	wantStatus(t, st, sid, "Deployed")
	return fn(context.Background(), sid)
}

func wantStatus(t *testing.T, st *site, sid, want string) {
	t.Helper()
	if got := st.statusName(t, sid); got != want {
		t.Fatalf("status %q, want %q", got, want)
	}
}
