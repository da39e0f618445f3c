package agentapi

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// bounded runs call on a context that ends after d and answers by then:
// when call has not returned, unavailable (503 with Retry-After, so the
// agent tries again, through the balancer another daemon), and call ends
// on its cancelled context in the background. A store without quorum
// fails its own calls within its timeout; this is the backstop that
// keeps every agent answer inside the listener's write timeout whatever
// a dependency does with its deadline.
func bounded[T any](ctx context.Context, d time.Duration, op string, call func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := call(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
	}
	select {
	case r := <-done: // it answered as the deadline passed
		return r.v, r.err
	default:
		var zero T
		return zero, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no answer within %s; try again", d)
	}
}

// pair carries two results through bounded.
type pair[A, B any] struct {
	a A
	b B
}

// boundStore bounds every store call of the agent routes by d.
type boundStore struct {
	Store
	d time.Duration
}

func (s boundStore) GetNode(ctx context.Context, id string) (lifecycle.Node, error) {
	return bounded(ctx, s.d, "store.GetNode", func(ctx context.Context) (lifecycle.Node, error) {
		return s.Store.GetNode(ctx, id)
	})
}

func (s boundStore) UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (lifecycle.Node, error) {
	return bounded(ctx, s.d, "store.UpdateNode", func(ctx context.Context) (lifecycle.Node, error) {
		return s.Store.UpdateNode(ctx, id, fn)
	})
}

func (s boundStore) TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (lifecycle.Node, error) {
	return bounded(ctx, s.d, "store.TransitionNode", func(ctx context.Context) (lifecycle.Node, error) {
		return s.Store.TransitionNode(ctx, t)
	})
}

func (s boundStore) GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error) {
	return bounded(ctx, s.d, "store.GetSitePolicy", func(ctx context.Context) (lifecycle.SitePolicy, error) {
		return s.Store.GetSitePolicy(ctx, siteID)
	})
}

func (s boundStore) TouchNodeContact(ctx context.Context, nodeID string) error {
	_, err := bounded(ctx, s.d, "store.TouchNodeContact", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.Store.TouchNodeContact(ctx, nodeID)
	})
	return err
}
