package workflow_test

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// benchAgents are fast agents for benchmarks: each waits for its node's
// task to be queued (as a real agent's long poll does), claims it,
// answers at once with clean evidence, and keeps the time its task took
// (claim to result; reporting the result is the daemon's API's work).
type benchAgents struct {
	s     *site
	mu    sync.Mutex
	wake  map[string]chan struct{}
	spent map[string]time.Duration
}

// benchAgents routes the site's task queue through the agents' wake-up.
func (s *site) benchAgents() *benchAgents {
	a := &benchAgents{s: s, wake: map[string]chan struct{}{}, spent: map[string]time.Duration{}}
	s.deps.Tasks = notifyingQueue{st: s.store, notify: a.notify}
	return a
}

func (a *benchAgents) ch(nodeID string) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.wake[nodeID]
	if c == nil {
		c = make(chan struct{}, 1)
		a.wake[nodeID] = c
	}
	return c
}

func (a *benchAgents) notify(nodeID string) {
	select {
	case a.ch(nodeID) <- struct{}{}:
	default:
	}
}

func (a *benchAgents) busy(nodeID string) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.spent[nodeID]
}

// start runs node's agent until the benchmark ends.
func (a *benchAgents) start(nodeID string) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.s.t.Cleanup(func() { cancel(); <-done })
	wake := a.ch(nodeID)
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			case <-time.After(time.Second): // a lost wake-up, as a long poll's timeout
			}
			a.drain(ctx, nodeID)
		}
	}()
}

// drain claims and answers node's tasks until none is left.
func (a *benchAgents) drain(ctx context.Context, nodeID string) {
	for {
		t, ok, err := a.s.store.ClaimTask(ctx, nodeID, time.Minute)
		if err != nil || !ok {
			return
		}
		began := time.Now()
		res, _ := cleanHost(t)
		a.mu.Lock()
		a.spent[nodeID] += time.Since(began)
		a.mu.Unlock()
		if _, err := a.s.store.CompleteTask(ctx, nodeID, t.ID, t.Seq, res); err != nil {
			return
		}
		a.s.runner.Wake(lifecycle.NodeKey(nodeID))
	}
}

// notifyingQueue queues tasks in the store and wakes the node's agent.
type notifyingQueue struct {
	st     lifecycle.Store
	notify func(nodeID string)
}

func (q notifyingQueue) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	out, created, err := q.st.EnqueueTask(ctx, t)
	if err == nil {
		q.notify(t.NodeID)
	}
	return out, created, err
}
