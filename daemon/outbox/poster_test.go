package outbox_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/outbox"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// receiver is the control plane: it checks every signature with the
// webhook receiver's own scheme (feed.Sign) and records what it accepted.
type receiver struct {
	mu       sync.Mutex
	secret   string
	fail     map[string]int // event id -> answers of 503 still to give
	accepted []outbox.Envelope
	refused  int
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	defer rv.mu.Unlock()
	sig := r.Header.Get(outbox.SignatureHeader)
	ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
	t, _ := strconv.ParseInt(ts, 10, 64)
	if sig == "" || sig != feed.Sign([]byte(rv.secret), t, body) {
		rv.refused++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var e outbox.Envelope
	if err := json.Unmarshal(body, &e); err != nil || r.Header.Get(outbox.EventIDHeader) != e.ID {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if rv.fail[e.ID] > 0 {
		rv.fail[e.ID]--
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	rv.accepted = append(rv.accepted, e)
}

func (rv *receiver) setSecret(s string) { rv.mu.Lock(); rv.secret = s; rv.mu.Unlock() }

func (rv *receiver) refusals() int { rv.mu.Lock(); defer rv.mu.Unlock(); return rv.refused }

func (rv *receiver) got() []outbox.Envelope {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]outbox.Envelope(nil), rv.accepted...)
}

func (rv *receiver) ids() []string {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := []string{}
	for _, e := range rv.accepted {
		out = append(out, e.ID)
	}
	return out
}

type env struct {
	t      *testing.T
	path   string
	st     *bolt.Store
	clock  *clockwork.FakeClock
	rv     *receiver
	url    string
	secret string // file
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, path: filepath.Join(t.TempDir(), "s.db"), clock: clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)),
		rv: &receiver{secret: "s3cret", fail: map[string]int{}}, secret: filepath.Join(t.TempDir(), "events.secret")}
	srv := httptest.NewServer(e.rv)
	t.Cleanup(srv.Close)
	e.url = srv.URL + "/events"
	e.writeSecret("s3cret\n")
	e.open()
	return e
}

func (e *env) open() {
	st, err := bolt.Open(e.path, bolt.Options{Now: e.clock.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	e.t.Cleanup(func() { st.Close() })
}

func (e *env) writeSecret(s string) {
	if err := os.WriteFile(e.secret, []byte(s), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) poster() *outbox.Poster {
	return outbox.New(outbox.Options{Store: e.st, URL: e.url, Secret: outbox.SecretFile(e.secret), Clock: e.clock,
		Rand: func() float64 { return 0 }, Backoff: backoff.Policy{Initial: 2 * time.Second, Max: time.Minute}})
}

func (e *env) add(id, node string) {
	_, err := e.st.AppendEvent(context.Background(), lifecycle.OutboxEvent{ID: id, Type: lifecycle.EventDecommissionStarted,
		NodeID: node, SiteID: "s1", RunID: "r-" + id, Data: json.RawMessage(`{"mode":"reimage"}`)})
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) pass(p *outbox.Poster, want int) {
	e.t.Helper()
	n, err := p.Pass(context.Background())
	if err != nil || n != want {
		e.t.Fatalf("pass: %d attempts, %v; want %d", n, err, want)
	}
}

func (e *env) event(id string) lifecycle.OutboxEvent {
	e.t.Helper()
	got, err := e.st.AppendEvent(context.Background(), lifecycle.OutboxEvent{ID: id, Type: "probe"})
	if err != nil {
		e.t.Fatal(err)
	}
	return got
}

func TestDeliversSignedEnvelope(t *testing.T) {
	e := newEnv(t)
	e.add("ev-1", "n1")
	e.pass(e.poster(), 1)
	want := []outbox.Envelope{{ID: "ev-1", Seq: 1, Type: lifecycle.EventDecommissionStarted, NodeID: "n1", SiteID: "s1",
		RunID: "r-ev-1", OccurredAt: e.clock.Now(), Data: json.RawMessage(`{"mode":"reimage"}`)}}
	if d := cmp.Diff(want, e.rv.got()); d != "" {
		t.Fatalf("accepted (-want +got):\n%s", d)
	}
	if got := e.event("ev-1"); got.DeliveredAt == nil || !got.DeliveredAt.Equal(e.clock.Now()) {
		t.Fatalf("stored event %+v is not marked delivered", got)
	}
	e.pass(e.poster(), 0)
}

// Failures are recorded with a backoff and retried until the receiver
// accepts; the node's next event waits behind the failing one.
func TestRetriesInOrderPerNode(t *testing.T) {
	e := newEnv(t)
	e.rv.fail["a1"] = 2
	e.add("a1", "n1")
	e.add("a2", "n1")
	e.add("b1", "n2")
	p := e.poster()
	e.pass(p, 2) // a1 fails, b1 goes
	if got := e.event("a1"); got.Attempts != 1 || !strings.Contains(got.LastError, "503") ||
		!got.NextAttempt.Equal(e.clock.Now().Add(time.Second)) {
		t.Fatalf("after one failure a1 = %+v, want 1 attempt, the 503, retry in 1s (half the first step)", got)
	}
	e.pass(p, 0) // not due yet, and a2 waits behind it
	e.clock.Advance(time.Second)
	e.pass(p, 1) // a1 fails again: next in 2s
	e.clock.Advance(time.Second)
	e.pass(p, 0)
	e.clock.Advance(time.Second)
	e.pass(p, 1) // a1 accepted
	e.pass(p, 1) // then a2
	if d := cmp.Diff([]string{"b1", "a1", "a2"}, e.rv.ids()); d != "" {
		t.Fatalf("delivery order (-want +got):\n%s", d)
	}
	if got := e.event("a1"); got.Attempts != 2 || got.LastError != "" || got.DeliveredAt == nil {
		t.Fatalf("a1 = %+v, want 2 failed attempts then delivered", got)
	}
}

// A restart (the store closed and opened again, a new poster) resumes
// with the undelivered events, in order.
func TestResumesAfterRestart(t *testing.T) {
	e := newEnv(t)
	e.rv.fail["a1"] = 1
	e.add("a1", "n1")
	e.add("a2", "n1")
	e.pass(e.poster(), 1)
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	e.open()
	e.clock.Advance(time.Minute)
	p := e.poster()
	e.pass(p, 1)
	e.pass(p, 1)
	if d := cmp.Diff([]string{"a1", "a2"}, e.rv.ids()); d != "" {
		t.Fatalf("delivered after restart (-want +got):\n%s", d)
	}
}

// The secret is read at every use: a rotation takes effect at once, and
// an unreadable secret is a failed attempt, never an unsigned post.
func TestSecretReadAtUse(t *testing.T) {
	e := newEnv(t)
	e.add("a1", "n1")
	e.add("b1", "n2")
	e.writeSecret("  \n")
	p := e.poster()
	e.pass(p, 2)
	if got := e.event("a1"); got.Attempts != 1 || !strings.Contains(got.LastError, "empty") {
		t.Fatalf("a1 = %+v, want a failed attempt naming the empty secret", got)
	}
	e.rv.setSecret("rotated")
	e.writeSecret("rotated")
	e.clock.Advance(time.Minute)
	e.pass(p, 2)
	if e.rv.refusals() != 0 || len(e.rv.ids()) != 2 {
		t.Fatalf("refused %d, accepted %v; want both accepted with the rotated secret", e.rv.refusals(), e.rv.ids())
	}
}

// A receiver that refuses the signature is retried like any failure.
func TestWrongSecretIsRetried(t *testing.T) {
	e := newEnv(t)
	e.rv.setSecret("other")
	e.add("a1", "n1")
	e.pass(e.poster(), 1)
	if got := e.event("a1"); got.DeliveredAt != nil || !strings.Contains(got.LastError, "401") || e.rv.refusals() != 1 {
		t.Fatalf("a1 = %+v (refused %d), want undelivered with the 401 recorded", got, e.rv.refusals())
	}
}

// Run delivers what is due and returns nil when its context ends.
func TestRunUntilCancelled(t *testing.T) {
	e := newEnv(t)
	e.add("a1", "n1")
	e.add("a2", "n1")
	p := outbox.New(outbox.Options{Store: e.st, URL: e.url, Secret: outbox.SecretFile(e.secret), Interval: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- p.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for len(e.rv.ids()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v", err)
	}
	if d := cmp.Diff([]string{"a1", "a2"}, e.rv.ids()); d != "" {
		t.Fatalf("delivered (-want +got):\n%s", d)
	}
}
