package cli_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
)

// flakyDaemon answers GET /onboardings/r1 with 503 problems for its first
// down requests (a cluster electing a leader), then with a completed run.
func flakyDaemon(t *testing.T, down int64) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= down {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":503,"code":"unavailable","detail":"the store has no quorum"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"onboarding":{"id":"r1","hostname":"gpu-001","status":"completed","current_stage":"wait_for_agent_enrollment","current_attempt":1}}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func watch(srv *httptest.Server) (int, string, string) {
	var out, errb bytes.Buffer
	vars := envMap{"MAAS_SIDECAR_ADDR": strings.TrimPrefix(srv.URL, "http://"), "MAAS_SIDECAR_TOKEN": "t"}
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: vars.get,
		Interval: 10 * time.Second, Sleep: func(context.Context, time.Duration) error { return nil }}
	code := cli.Main(context.Background(), []string{"onboarding", "watch", "r1"}, env)
	return code, out.String(), errb.String()
}

// A watch rides out a daemon that cannot answer for a while (503): it
// says so once on stderr, goes on polling, and ends as the run does. An
// outage longer than two minutes of polls ends it, as does any other
// error.
func TestWatchRidesOutAnOutage(t *testing.T) {
	srv, calls := flakyDaemon(t, 3)
	code, out, errb := watch(srv)
	if code != cli.ExitOK || !strings.Contains(out, "completed") || calls.Load() != 4 {
		t.Fatalf("watch through 3 unavailable answers: exit %d after %d calls\n%s%s", code, calls.Load(), out, errb)
	}
	if strings.Count(errb, "cannot answer now") != 1 || !strings.Contains(errb, "answers again") {
		t.Errorf("stderr should note the outage once and its end:\n%s", errb)
	}

	srv, calls = flakyDaemon(t, 1000)
	code, _, errb = watch(srv)
	if code == cli.ExitOK || calls.Load() != 12 || !strings.Contains(errb, "no quorum") {
		t.Fatalf("watch through a lasting outage: exit %d after %d calls (want 12: two minutes of 10 s polls)\n%s", code, calls.Load(), errb)
	}
}

// Watch polls once per Interval on the env's clock: the second request
// goes out only when the fake clock has moved a whole interval.
func TestWatchPollsOnTheClock(t *testing.T) {
	srv, calls := flakyDaemon(t, 1)
	clock := clockwork.NewFakeClock()
	var out, errb bytes.Buffer
	vars := envMap{"MAAS_SIDECAR_ADDR": strings.TrimPrefix(srv.URL, "http://"), "MAAS_SIDECAR_TOKEN": "t"}
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: vars.get,
		Interval: 10 * time.Second, Clock: clock}
	done := make(chan int, 1)
	go func() { done <- cli.Main(context.Background(), []string{"onboarding", "watch", "r1"}, env) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("watch is not waiting on its clock: %v", err)
	}
	clock.Advance(10*time.Second - time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d requests before the interval passed, want 1", n)
	}
	clock.Advance(time.Millisecond)
	if code := <-done; code != cli.ExitOK || calls.Load() != 2 {
		t.Fatalf("watch after one interval: exit %d after %d requests\n%s%s", code, calls.Load(), out.String(), errb.String())
	}
}
