//go:build e2e

package system

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/outbox"
)

// eventSink is the GPU cloud's events endpoint: it keeps every lifecycle
// event the daemon's outbox delivers and answers 204.
type eventSink struct {
	url    string
	mu     sync.Mutex
	events []outbox.Envelope
}

func newEventSink(t *testing.T) *eventSink {
	s := &eventSink{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e outbox.Envelope
		if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.events = append(s.events, e)
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/events"
	return s
}

// waitFor fails the test unless node's events of every type in types
// are delivered within d.
func (s *eventSink) waitFor(t *testing.T, node string, d time.Duration, types ...lifecycle.EventType) {
	t.Helper()
	var got []lifecycle.EventType
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		s.mu.Lock()
		got = got[:0]
		for _, e := range s.events {
			if e.NodeID == node {
				got = append(got, e.Type)
			}
		}
		s.mu.Unlock()
		if !slices.ContainsFunc(types, func(ty lifecycle.EventType) bool { return !slices.Contains(got, ty) }) {
			return
		}
	}
	t.Errorf("events of node %s delivered: %v; want %v among them within %s", node, got, types, d)
}

var consoleCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// consolePage signs in to the console with the bootstrap admin token as
// a browser would and returns the page at path.
func (d *daemon) consolePage(t *testing.T, path string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	get := func(p string) string {
		resp, err := c.Get(d.url(p))
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s\n%s", p, resp.Status, b)
		}
		return string(b)
	}
	m := consoleCSRF.FindStringSubmatch(get("/console/login"))
	if m == nil {
		t.Fatal("the console's sign-in form has no CSRF token")
	}
	resp, err := c.PostForm(d.url("/console/login"), url.Values{"csrf": {m[1]}, "token": {d.token()}})
	if err != nil {
		t.Fatalf("console sign-in: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("console sign-in: %s", resp.Status)
	}
	return get(path)
}
