package agentapi

import (
	"context"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Notifier wakes the long polls of one node, in process. A poll subscribes
// before it looks at the queue, so a task enqueued in between is not
// missed.
type Notifier struct {
	mu      sync.Mutex
	waiters map[string]map[chan struct{}]struct{}
}

// NewNotifier returns an empty notifier.
func NewNotifier() *Notifier {
	return &Notifier{waiters: map[string]map[chan struct{}]struct{}{}}
}

// Subscribe returns a channel that is closed at the node's next Notify,
// and a function that drops the subscription.
func (n *Notifier) Subscribe(nodeID string) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.waiters[nodeID] == nil {
		n.waiters[nodeID] = map[chan struct{}]struct{}{}
	}
	n.waiters[nodeID][ch] = struct{}{}
	return ch, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.waiters[nodeID], ch)
		if len(n.waiters[nodeID]) == 0 {
			delete(n.waiters, nodeID)
		}
	}
}

// Notify wakes every poll of the node.
func (n *Notifier) Notify(nodeID string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for ch := range n.waiters[nodeID] {
		close(ch)
	}
	delete(n.waiters, nodeID)
}

// Queue enqueues agent tasks and wakes the node's long poll. Workflows use
// it instead of calling the store directly.
type Queue struct {
	Store    lifecycle.TaskStore
	Notifier *Notifier
}

// Enqueue is lifecycle.TaskStore.EnqueueTask followed by a wake-up. No
// task is queued once ctx's site lease has lapsed (lifecycle.CheckLease).
func (q Queue) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	if err := lifecycle.CheckLease(ctx); err != nil {
		return lifecycle.AgentTask{}, false, err
	}
	out, created, err := q.Store.EnqueueTask(ctx, t)
	if err == nil {
		q.Notifier.Notify(t.NodeID)
	}
	return out, created, err
}
