//go:build integration

package pgnotify_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// listenerPassword is the least-privileged role's password; no error may
// ever contain it.
const listenerPassword = "Lst-pw-7f3a9c"

// leastPrivilege sets up the database maasdb with CONNECT revoked from
// PUBLIC and the role listener, which may log in and connect to maasdb
// and nothing else (docs/operations.md, "Push from the region database").
func leastPrivilege(t *testing.T, s *pgtest.Server) {
	s.Exec(t, "", "CREATE DATABASE maasdb", "REVOKE CONNECT ON DATABASE maasdb FROM PUBLIC",
		"CREATE ROLE listener LOGIN PASSWORD '"+listenerPassword+"'", "GRANT CONNECT ON DATABASE maasdb TO listener")
}

// dsn is a DSN without the password, as a site keeps it.
func dsn(s *pgtest.Server, user, db string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", user, s.Port(), db)
}

func password(pw string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return pw, nil }
}

// recorder keeps what a listener reported, in order.
type recorder struct {
	mu     sync.Mutex
	events []string // "listening", "down:<reason>", "<channel>:<payload>"
	errs   []error
	wake   chan struct{}
}

func newRecorder() *recorder { return &recorder{wake: make(chan struct{}, 1)} }

func (r *recorder) add(e string, err error) {
	r.mu.Lock()
	r.events = append(r.events, e)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *recorder) snapshot() ([]string, []error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...), append([]error(nil), r.errs...)
}

// waitFor waits until ok holds for the events so far.
func (r *recorder) waitFor(t *testing.T, what string, d time.Duration, ok func([]string) bool) []string {
	t.Helper()
	deadline := time.After(d)
	for {
		ev, _ := r.snapshot()
		if ok(ev) {
			return ev
		}
		select {
		case <-r.wake:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; events: %v", what, ev)
		}
	}
}

func count(ev []string, prefix string) int {
	n := 0
	for _, e := range ev {
		if strings.HasPrefix(e, prefix) {
			n++
		}
	}
	return n
}

// start runs a listener on src until the test ends.
func start(t *testing.T, src pgnotify.Source, health time.Duration) *recorder {
	r := newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cfg := pgnotify.Config{Source: src, Clock: clockwork.NewRealClock(), MinBackoff: 50 * time.Millisecond,
		MaxBackoff: 400 * time.Millisecond, Health: health,
		Listening: func() { r.add("listening", nil) },
		Notify:    func(n pgnotify.Notification) { r.add(n.Channel+":"+n.Payload, nil) },
		Down:      func(err error) { r.add("down:"+pgnotify.Reason(err), err) }}
	go func() { done <- pgnotify.Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v after its context ended, want nil", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("Run did not return within 15s of its context ending")
		}
		_, errs := r.snapshot()
		for _, err := range errs {
			if strings.Contains(err.Error(), listenerPassword) || strings.Contains(err.Error(), pgtest.SuperPassword) {
				t.Errorf("an error contains a password: %v", err)
			}
		}
	})
	return r
}
