package metrics

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), sub)
}

// eventually polls cond on the wall clock (the writer runs on the fake one).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestWriterRewritesOnChangeAndInterval: the file is written at start,
// after a change, every interval (its write timestamp moves with the
// fake clock), and once more at the end; a directory that is missing is
// reported once, and the recovery once.
func TestWriterRewritesOnChangeAndInterval(t *testing.T) {
	dir := t.TempDir() + "/textfile"
	clock := clockwork.NewFakeClockAt(t0)
	var logs syncBuffer
	m := New("dev", []string{"node.drain"})
	w := &Writer{Metrics: m, Dir: dir, Interval: 30 * time.Second, Clock: clock, Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()

	for range 3 { // four failed writes (at start and three intervals): one log line
		clock.BlockUntilContext(ctx, 1)
		clock.Advance(30 * time.Second)
	}
	clock.BlockUntilContext(ctx, 1) // the third failed write is done
	if n := logs.count("agent metrics not written"); n != 1 {
		t.Errorf("a missing directory was logged %d times, want once", n)
	}
	if err := os.Mkdir(dir, 0o755); err != nil { // node_exporter got installed
		t.Fatal(err)
	}
	clock.Advance(30 * time.Second)
	eventually(t, "the first successful write", func() bool { return logs.count("agent metrics written again") == 1 })
	if got := value(readFile(t, dir), "gpuaas_node_agent_metrics_write_timestamp_seconds"); got != float64(t0.Add(2*time.Minute).Unix()) {
		t.Errorf("write timestamp %v, want the fake clock's %v", got, t0.Add(2*time.Minute).Unix())
	}
	m.TaskDone("node.drain", ResultSuccess) // a change, no clock movement
	eventually(t, "the write after a change", func() bool {
		return value(readFile(t, dir), "gpuaas_node_agent_tasks_total", "type", "node.drain", "result", ResultSuccess) == 1
	})
	m.TaskDone("node.drain", ResultFailure)
	cancel()
	<-done
	if got := value(readFile(t, dir), "gpuaas_node_agent_tasks_total", "type", "node.drain", "result", ResultFailure); got != 1 {
		t.Errorf("after the writer stopped the failure count is %v, want 1 (a last write at the end)", got)
	}
}
