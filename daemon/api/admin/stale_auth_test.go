package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// snapshotStore answers every read from a snapshot taken at taken, as a
// replicated store without quorum does, which knows only the tokens in
// known.
type snapshotStore struct {
	*bolt.Store
	taken time.Time
	known map[string]bool
}

// GetSite answers from the snapshot, which predates every site.
func (s snapshotStore) GetSite(ctx context.Context, id string) (lifecycle.Site, error) {
	lifecycle.MarkStale(ctx, s.taken)
	return lifecycle.Site{}, lifecycle.Errorf(lifecycle.CodeNotFound, "store.GetSite", "site %s not found", id)
}

func (s snapshotStore) AdminTokenByHash(ctx context.Context, hash string) (lifecycle.AdminToken, error) {
	lifecycle.MarkStale(ctx, s.taken)
	if !s.known[hash] {
		return lifecycle.AdminToken{}, lifecycle.Errorf(lifecycle.CodeNotFound, "store.AdminTokenByHash", "no token")
	}
	return s.Store.AdminTokenByHash(ctx, hash)
}

// A token the stale snapshot does not know (created after it was taken)
// is answered 503 with the reason, not 401 "unknown token": the token
// may well be good. A token the snapshot knows reads as usual.
func TestStaleSnapshotDoesNotKnowToken(t *testing.T) {
	e := newEnv(t)
	e.handler = admin.New(admin.Config{Store: snapshotStore{Store: e.store, taken: time.Now().Add(-time.Minute), known: map[string]bool{}}}).Handler()
	r := e.do(lifecycle.RoleViewer, http.MethodGet, "/api/v1/admin/maas-sites", nil)
	if r.Code != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), "does not know the token") {
		t.Fatalf("GET with a token the snapshot lacks: %d %s, want 503 naming the snapshot", r.Code, r.Body)
	}
}

// A record the stale snapshot lacks is answered 503 naming the snapshot,
// not 404: it may have been created since, and a watch must wait for it.
func TestStaleSnapshotLacksRecord(t *testing.T) {
	e := newEnv(t)
	tok := e.tokens[lifecycle.RoleViewer]
	known := map[string]bool{admintoken.Hash(tok): true}
	e.handler = admin.New(admin.Config{Store: snapshotStore{Store: e.store, taken: time.Now().Add(-time.Minute), known: known}}).Handler()
	r := e.do(lifecycle.RoleViewer, http.MethodGet, "/api/v1/admin/maas-sites/site-made-later", nil)
	if r.Code != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), "does not have it") {
		t.Fatalf("GET of a record the snapshot lacks: %d %s, want 503 naming the snapshot", r.Code, r.Body)
	}
}
