package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// auditCounter counts the admin API's audit writes and their entries.
type auditCounter struct {
	*bolt.Store
	mu            sync.Mutex
	writes, added int
}

func (s *auditCounter) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error) {
	s.count(1)
	return s.Store.AppendAudit(ctx, e)
}

func (s *auditCounter) AppendAudits(ctx context.Context, es []lifecycle.AuditEntry) ([]lifecycle.AuditEntry, error) {
	s.count(len(es))
	return s.Store.AppendAudits(ctx, es)
}

func (s *auditCounter) count(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes, s.added = s.writes+1, s.added+n
}

// A batch's runs are audited in one store write, not one per run (which
// would queue behind the runs the batch starts), and each run still has
// its own onboarding.create entry.
func TestBatchIsAuditedInOneWrite(t *testing.T) {
	counter := &auditCounter{}
	e := newEnvWith(t, func(st *bolt.Store) admin.Store { counter.Store = st; return counter })
	id := e.site("a")
	nodes := make([][2]string, 50)
	for i := range nodes {
		nodes[i] = [2]string{fmt.Sprintf("n%02d", i), fmt.Sprintf("10.0.2.%d", i+1)}
	}
	counter.mu.Lock()
	counter.writes, counter.added = 0, 0
	counter.mu.Unlock()
	expect(t, e.do(operatorRole, http.MethodPost, onboardings+"/batch", batchBody(id, nodes...)), http.StatusCreated, "")
	counter.mu.Lock()
	writes, added := counter.writes, counter.added
	counter.mu.Unlock()
	if writes != 1 || added != 50 {
		t.Fatalf("a batch of 50 was audited in %d writes of %d entries, want 1 of 50", writes, added)
	}
	created, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "onboarding.create"})
	e.must(err)
	if len(created) != 50 || created[0].TargetKind != "run" || created[49].CorrelationIDs["batch_id"] == "" {
		t.Fatalf("%d onboarding.create entries, first %+v", len(created), created[0])
	}
}
