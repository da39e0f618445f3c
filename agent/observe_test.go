package agent

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// observed records what the agent tells its metrics.
type observed struct {
	mu       sync.Mutex
	events   []string
	contacts int
}

func (o *observed) add(e string)                { o.mu.Lock(); o.events = append(o.events, e); o.mu.Unlock() }
func (o *observed) TaskDone(typ, result string) { o.add("task " + typ + " " + result) }
func (o *observed) Contacted(time.Time)         { o.mu.Lock(); o.contacts++; o.mu.Unlock() }
func (o *observed) Enrolled(t time.Time)        { o.add("enrolled at " + t.Format(time.RFC3339)) }
func (o *observed) SetEnrolled(ok bool)         { o.add(fmt.Sprint("enrolled ", ok)) }
func (o *observed) Refused(reason string)       { o.add("refused " + reason) }

// changes drops repeated SetEnrolled values (the loop calls it after
// every step; the metrics package writes only changes).
func (o *observed) changes() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	last := "enrolled false"
	for _, e := range o.events {
		if e == "enrolled true" || e == "enrolled false" {
			if e == last {
				continue
			}
			last = e
		}
		out = append(out, e)
	}
	return out
}

type failTask struct{}

func (failTask) Run(context.Context, task.Env, []byte) (task.Result, error) {
	return task.Result{}, errors.New("boom")
}

// TestAgentReportsItsMetrics: an enrollment, tasks that succeed, fail,
// are refused and are of an unknown type, and a refused certificate reach
// the agent's metrics; every accepted request counts as contact.
func TestAgentReportsItsMetrics(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	obs := &observed{}
	r.a.o.Observer = obs
	r.a.o.Registry.Register("node.heartbeat_check", &countTask{})
	r.a.o.Registry.Register("node.drain", failTask{})
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) { return is.sign(req.CSR, r.clock.Now()) }
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	mk := func(typ, node string, seq uint64) *wire.Task {
		tk := wire.Sign(key, wire.Task{ID: fmt.Sprint("t", seq), NodeID: node, Type: typ, Payload: []byte(`{}`), ExpiresAt: t0.Add(time.Hour), Seq: seq})
		return &tk
	}
	var mu sync.Mutex
	queue := []*wire.Task{mk("node.heartbeat_check", "node-1", 1), mk("node.drain", "node-1", 2),
		mk("node.heartbeat_check", "node-2", 3), mk("node.unheard_of", "node-1", 4)}
	tr.WaitFn = func() (*wire.Task, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(queue) == 0 {
			time.Sleep(time.Millisecond)
			return nil, superseded
		}
		next := queue[0]
		queue = queue[1:]
		return next, nil
	}
	r.run(t)
	waitFor(t, "the refusal", func() bool { return slices.Contains(obs.changes(), "refused certificate") })
	want := []string{"enrolled at " + t0.Format(time.RFC3339), "enrolled true",
		"task node.heartbeat_check success", "task node.drain failure", "task node.heartbeat_check rejected",
		"task node.unheard_of unsupported", "refused certificate", "enrolled false"}
	waitFor(t, "enrolled false", func() bool { return len(obs.changes()) >= len(want) })
	if diff := cmp.Diff(want, obs.changes()[:len(want)]); diff != "" {
		t.Errorf("observed (-want +got):\n%s", diff)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	// one enrollment, four accepted polls, four accepted reports
	if obs.contacts != 9 {
		t.Errorf("contacts = %d, want 9", obs.contacts)
	}
}
