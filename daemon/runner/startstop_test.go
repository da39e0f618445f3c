package runner

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// slowSites is a store whose ListSites waits for started to be closed,
// then answers fail (or what the store holds when fail is nil).
type slowSites struct {
	Store
	started chan struct{}
	fail    func(ctx context.Context) error
}

func (s slowSites) ListSites(ctx context.Context) ([]lifecycle.Site, error) {
	close(s.started)
	if err := s.fail(ctx); err != nil {
		return nil, err
	}
	return s.Store.ListSites(ctx)
}

// A daemon stopped while its runner still reads the sites at start (the
// store answers the cancelled context's error) is shut down, not
// failed; a store that fails while nobody stops the runner is an error.
func TestStopWhileStartingIsNoFailure(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := func(fail func(context.Context) error, stop bool) error {
		store := slowSites{Store: st, started: make(chan struct{}), fail: fail}
		r := New(Options{Store: store, Clock: clockwork.NewFakeClock(), Holder: "daemon-a",
			Defs: func(lifecycle.Run) (*Def, error) { return &Def{}, nil }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		<-store.started
		if stop {
			cancel()
		}
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return")
			return nil
		}
	}
	cancelled := func(ctx context.Context) error {
		<-ctx.Done()
		return lifecycle.Wrap(lifecycle.CodeUnavailable, "store.ListSites", ctx.Err())
	}
	if err := run(cancelled, true); err != nil {
		t.Errorf("stopped while starting: Run() = %v, want nil", err)
	}
	broken := errors.New("disk on fire")
	if err := run(func(context.Context) error { return broken }, false); !errors.Is(err, broken) {
		t.Errorf("a failing store at start: Run() = %v, want its error", err)
	}
}
