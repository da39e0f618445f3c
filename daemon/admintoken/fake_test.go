package admintoken

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// memTokens is an in-memory lifecycle.TokenStore for these tests; the
// daemon binary test exercises the real backend.
type memTokens struct {
	mu     sync.Mutex
	byID   map[string]lifecycle.AdminToken
	now    func() time.Time
	failOn string // method name that returns unavailable
}

func newMemTokens(now func() time.Time) *memTokens {
	return &memTokens{byID: map[string]lifecycle.AdminToken{}, now: now}
}

func (m *memTokens) fail(op string) error {
	if m.failOn == op {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, "mem."+op, "store down")
	}
	return nil
}

func (m *memTokens) CreateAdminToken(_ context.Context, t lifecycle.AdminToken) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail("CreateAdminToken"); err != nil {
		return err
	}
	for _, o := range m.byID {
		if o.ID == t.ID || o.Hash == t.Hash {
			return lifecycle.Errorf(lifecycle.CodeConflict, "mem.CreateAdminToken", "duplicate")
		}
	}
	m.byID[t.ID] = t
	return nil
}

func (m *memTokens) AdminTokenByHash(_ context.Context, hash string) (lifecycle.AdminToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail("AdminTokenByHash"); err != nil {
		return lifecycle.AdminToken{}, err
	}
	for _, t := range m.byID {
		if t.Hash == hash {
			return t, nil
		}
	}
	return lifecycle.AdminToken{}, lifecycle.Errorf(lifecycle.CodeNotFound, "mem.AdminTokenByHash", "no token")
}

func (m *memTokens) ListAdminTokens(context.Context) ([]lifecycle.AdminToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]lifecycle.AdminToken, 0, len(m.byID))
	for _, t := range m.byID {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, m.fail("ListAdminTokens")
}

func (m *memTokens) ListAdminTokenPage(ctx context.Context, after string, limit int) ([]lifecycle.AdminToken, error) {
	all, err := m.ListAdminTokens(ctx)
	out := []lifecycle.AdminToken{}
	for _, t := range all {
		if t.ID > after && len(out) < limit {
			out = append(out, t)
		}
	}
	return out, err
}

func (m *memTokens) RevokeAdminToken(_ context.Context, id string) (lifecycle.AdminToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.byID[id]
	if !ok {
		return t, lifecycle.Errorf(lifecycle.CodeNotFound, "mem.RevokeAdminToken", "no token %s", id)
	}
	if t.RevokedAt == nil {
		now := m.now()
		t.RevokedAt = &now
		m.byID[id] = t
	}
	return t, nil
}

// active returns the hashes of unrevoked bootstrap tokens.
func (m *memTokens) active() []string {
	var out []string
	for _, t := range m.byID {
		if t.Name == Name && t.RevokedAt == nil {
			out = append(out, t.Hash)
		}
	}
	return out
}
