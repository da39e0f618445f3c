package maassim_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

type receiver struct {
	mu    sync.Mutex
	hints []maassim.Hint
	bad   int
	sent  time.Time // when the change was made
	first time.Time // when the first hint arrived
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sig := r.Header.Get(maassim.SignatureHeader)
	ts := strings.TrimPrefix(strings.Split(sig, ",")[0], "t=")
	var tsn int64
	_ = json.Unmarshal([]byte(ts), &tsn)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if sig != maassim.Sign([]byte("s3cret"), tsn, body) {
		rc.bad++
		return
	}
	var h maassim.Hint
	_ = json.Unmarshal(body, &h)
	if len(rc.hints) == 0 {
		rc.first = time.Now()
	}
	rc.hints = append(rc.hints, h)
}

func (rc *receiver) wait(t *testing.T, n int) []maassim.Hint {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		rc.mu.Lock()
		got := append([]maassim.Hint(nil), rc.hints...)
		rc.mu.Unlock()
		if len(got) >= n {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("received fewer than %d hints", n)
	return nil
}

func TestWebhookEmitter(t *testing.T) {
	cases := []struct {
		name   string
		faults maassim.WebhookFaults
		check  func(t *testing.T, rc *receiver, hs []maassim.Hint)
	}{
		{"signed hints in order", maassim.WebhookFaults{}, func(t *testing.T, rc *receiver, hs []maassim.Hint) {
			if hs[0].StatusName != "Allocated" || hs[1].StatusName != "Deploying" || hs[0].SystemID == "" || rc.bad != 0 {
				t.Fatalf("%+v bad=%d", hs, rc.bad)
			}
		}},
		{"duplicate", maassim.WebhookFaults{Duplicate: 1}, func(t *testing.T, _ *receiver, hs []maassim.Hint) {
			if hs[0].ID != hs[1].ID {
				t.Fatalf("not duplicated: %+v", hs)
			}
		}},
		{"reorder", maassim.WebhookFaults{Reorder: 1}, func(t *testing.T, _ *receiver, hs []maassim.Hint) {
			if hs[0].StatusName != "Deploying" || hs[1].StatusName != "Allocated" {
				t.Fatalf("not reordered: %+v", hs)
			}
		}},
		{"delay", maassim.WebhookFaults{Delay: 150 * time.Millisecond}, func(t *testing.T, rc *receiver, _ []maassim.Hint) {
			if d := rc.first.Sub(rc.sent); d < 150*time.Millisecond {
				t.Fatalf("first hint after %v, want the 150ms delay", d)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newSite(t, 1)
			rc := &receiver{}
			hs := httptest.NewServer(rc)
			defer hs.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go st.sim.Run(ctx)
			st.sim.SetWebhooks([]maassim.WebhookTarget{{URL: hs.URL, Secret: "s3cret"}}, c.faults)
			rc.mu.Lock()
			rc.sent = time.Now()
			rc.mu.Unlock()
			mustPost(t, st, "/MAAS/api/2.0/machines/"+st.ids(t)[0]+"/?op=deploy", nil)
			hints := rc.wait(t, 2)
			rc.mu.Lock()
			defer rc.mu.Unlock()
			c.check(t, rc, hints)
		})
	}
	t.Run("drop", func(t *testing.T) {
		st := newSite(t, 1)
		rc := &receiver{}
		hs := httptest.NewServer(rc)
		defer hs.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go st.sim.Run(ctx)
		st.sim.SetWebhooks([]maassim.WebhookTarget{{URL: hs.URL, Secret: "s3cret"}}, maassim.WebhookFaults{Drop: 1})
		mustPost(t, st, "/MAAS/api/2.0/machines/"+st.ids(t)[0]+"/?op=deploy", nil)
		time.Sleep(100 * time.Millisecond)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.hints) != 0 {
			t.Fatalf("dropped hints delivered: %+v", rc.hints)
		}
	})
}

func TestControlRoutes(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	post := func(path, body string) int {
		r, err := http.Post(st.srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if c := post("/_sim/faults/ops", `{"op":"GET machines","error_rate":1}`); c != 204 {
		t.Fatalf("faults: %d", c)
	}
	if r := st.call(t, "GET", "/MAAS/api/2.0/machines/", nil); r.code != 503 {
		t.Fatalf("fault not applied: %d", r.code)
	}
	post("/_sim/faults/ops", `{"op":"GET machines"}`)
	if c := post("/_sim/machines/"+sid+"/mark-broken", `{"comment":"psu"}`); c != 204 {
		t.Fatalf("mark-broken: %d", c)
	}
	wantStatus(t, st, sid, "Broken")
	if c := post("/_sim/machines/"+sid+"/explode", ``); c != 404 {
		t.Fatalf("unknown action: %d", c)
	}
	if c := post("/_sim/hosts", `{"power_address":"10.3.3.3"}`); c != 204 {
		t.Fatalf("hosts: %d", c)
	}
	if c := post("/_sim/hosts/10.3.3.3/pxe-boot", ``); c != 204 {
		t.Fatalf("pxe-boot: %d", c)
	}
	if c := post("/_sim/bmcs/10.3.3.3", `{"dead":true}`); c != 204 {
		t.Fatalf("bmcs: %d", c)
	}
}
