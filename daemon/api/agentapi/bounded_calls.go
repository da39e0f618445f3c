package agentapi

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func (s boundStore) ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (lifecycle.EnrollmentToken, error) {
	return bounded(ctx, s.d, "store.ConsumeEnrollmentToken", func(ctx context.Context) (lifecycle.EnrollmentToken, error) {
		return s.Store.ConsumeEnrollmentToken(ctx, hash, nodeID, keyID)
	})
}

func (s boundStore) RenewEnrollmentToken(ctx context.Context, hash, nodeID string, next lifecycle.EnrollmentToken) (lifecycle.EnrollmentToken, error) {
	return bounded(ctx, s.d, "store.RenewEnrollmentToken", func(ctx context.Context) (lifecycle.EnrollmentToken, error) {
		return s.Store.RenewEnrollmentToken(ctx, hash, nodeID, next)
	})
}

func (s boundStore) ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (lifecycle.AgentTask, bool, error) {
	r, err := bounded(ctx, s.d, "store.ClaimTask", func(ctx context.Context) (pair[lifecycle.AgentTask, bool], error) {
		t, ok, err := s.Store.ClaimTask(ctx, nodeID, lease)
		return pair[lifecycle.AgentTask, bool]{t, ok}, err
	})
	return r.a, r.b, err
}

func (s boundStore) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (lifecycle.AgentTask, error) {
	return bounded(ctx, s.d, "store.CompleteTask", func(ctx context.Context) (lifecycle.AgentTask, error) {
		return s.Store.CompleteTask(ctx, nodeID, taskID, seq, res)
	})
}

// boundDeps bounds the enrollment hook, the payload resolver and the
// bootstrap scripts as the store: each reads or writes the store too.
func (c Config) boundDeps() Config {
	d, hook, resolve := c.StoreTimeout, c.OnEnrolled, c.Resolve
	c.Store = boundStore{Store: c.Store, d: d}
	c.OnEnrolled = func(ctx context.Context, n lifecycle.Node) error {
		_, err := bounded(ctx, d, "agentapi.enrolled", func(ctx context.Context) (struct{}, error) {
			return struct{}{}, hook(ctx, n)
		})
		return err
	}
	if resolve != nil {
		c.Resolve = func(ctx context.Context, t lifecycle.AgentTask) ([]byte, error) {
			return bounded(ctx, d, "agentapi.resolve", func(ctx context.Context) ([]byte, error) { return resolve(ctx, t) })
		}
	}
	if c.Bootstrap != nil {
		c.Bootstrap = boundScripts{c.Bootstrap, d}
	}
	return c
}

type boundScripts struct {
	BootstrapScripts
	d time.Duration
}

func (b boundScripts) BootstrapScript(ctx context.Context, ticketHash string, m lifecycle.ScriptMode) ([]byte, error) {
	return bounded(ctx, b.d, "agentapi.bootstrap", func(ctx context.Context) ([]byte, error) {
		return b.BootstrapScripts.BootstrapScript(ctx, ticketHash, m)
	})
}
