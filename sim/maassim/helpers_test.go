package maassim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

const testKey = "ck1:tk1:ts-secret-1"

type site struct {
	sim   *maassim.Sim
	srv   *httptest.Server
	clock *clockwork.FakeClock
}

// newSite starts a simulator at speed 100 on a fake clock set to wall
// time (gomaasapi signs with wall-clock timestamps) with that many Ready
// machines.
func newSite(t *testing.T, machines int) *site {
	t.Helper()
	clock := clockwork.NewFakeClock()
	sim, err := maassim.New(maassim.Options{APIKey: testKey, Clock: clock, Seed: 1,
		Speed: 100, CustomImages: []string{"gpuaas-ubuntu-2204"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < machines; i++ {
		if _, err := sim.AddMachine(maassim.HostSpec{}, "", maassim.StatusReady); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return &site{sim: sim, srv: srv, clock: clock}
}

// advance moves the clock and settles the simulator.
func (s *site) advance(d time.Duration) {
	s.clock.Advance(d)
	s.sim.Step(context.Background())
}

type resp struct {
	code   int
	body   string
	header http.Header
}

var nonceN atomic.Int64

// oauth signs like MAAS's clients: PLAINTEXT, fresh nonce, wall-clock time.
func oauth(key string, ts int64, nonce string) string {
	p := strings.Split(key, ":")
	return fmt.Sprintf(`OAuth realm="", oauth_consumer_key="%s", oauth_token="%s", oauth_signature_method="PLAINTEXT", `+
		`oauth_signature="%s", oauth_timestamp="%d", oauth_nonce="%s", oauth_version="1.0"`,
		url.QueryEscape(p[0]), url.QueryEscape(p[1]), url.QueryEscape("&"+p[2]), ts, nonce)
}

// call sends a signed request; form goes in the body for POST and PUT.
func (s *site) call(t *testing.T, method, path string, form url.Values) resp {
	t.Helper()
	return s.send(t, method, path, form, oauth(testKey, s.clock.Now().Unix(), fmt.Sprint("n", nonceN.Add(1))))
}

func (s *site) send(t *testing.T, method, path string, form url.Values, auth string) resp {
	t.Helper()
	var body io.Reader
	u := s.srv.URL + path
	if method == http.MethodPost || method == http.MethodPut {
		body = strings.NewReader(form.Encode())
	} else if len(form) > 0 {
		u += "?" + form.Encode()
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return resp{code: r.StatusCode, body: string(b), header: r.Header}
}

// machine reads a machine's JSON as a map.
func (s *site) machine(t *testing.T, sid string) map[string]any {
	t.Helper()
	r := s.call(t, "GET", "/MAAS/api/2.0/machines/"+sid+"/", nil)
	if r.code != 200 {
		t.Fatalf("read %s: %d %s", sid, r.code, r.body)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func (s *site) statusName(t *testing.T, sid string) string {
	t.Helper()
	return s.machine(t, sid)["status_name"].(string)
}

// ids lists the system ids in machines/ order.
func (s *site) ids(t *testing.T) []string {
	t.Helper()
	r := s.call(t, "GET", "/MAAS/api/2.0/machines/", nil)
	var ms []struct {
		SystemID string `json:"system_id"`
	}
	if err := json.Unmarshal([]byte(r.body), &ms); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.SystemID
	}
	return out
}

func mustPost(t *testing.T, s *site, path string, form url.Values) {
	t.Helper()
	if r := s.call(t, "POST", path, form); r.code != 200 {
		t.Fatalf("POST %s: %d %s", path, r.code, r.body)
	}
}

func fmtPath(format string, args ...any) string { return fmt.Sprintf(format, args...) }
