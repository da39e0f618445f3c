package admintoken

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Daemons sharing one store keep one bootstrap token each: every start
// of one (a first start, a rotation) leaves the others' tokens valid.
func TestSharedStoreKeepsEachDaemonsToken(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return epoch }
	st := newMemTokens(now)
	rnd := &counter{}
	opts := func(name string) Options {
		return Options{Dir: filepath.Join(t.TempDir(), name), Name: BootstrapName(name), Rand: rnd, Clock: clockwork.NewFakeClockAt(epoch)}
	}
	a, b := opts("r1"), opts("r2")
	for _, o := range []Options{a, b} {
		if err := os.MkdirAll(o.Dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ra, err := Ensure(ctx, st, a)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Ensure(ctx, st, b)
	if err != nil {
		t.Fatal(err)
	}
	if rb.Outcome != Created || len(rb.Revoked) != 0 {
		t.Fatalf("second daemon's first start: %+v, want created, nothing revoked", rb)
	}
	// r1 rotates its token: r2's stays valid
	if err := os.Remove(ra.Path); err != nil {
		t.Fatal(err)
	}
	ra2, err := Ensure(ctx, st, a)
	if err != nil {
		t.Fatal(err)
	}
	if ra2.Outcome != Rotated || !cmp.Equal(ra2.Revoked, []string{ra.TokenID}) {
		t.Fatalf("rotation of r1: %+v, want rotated revoking only %s", ra2, ra.TokenID)
	}
	active := map[string]string{}
	for _, tok := range st.byID {
		if tok.RevokedAt == nil {
			active[tok.Name] = tok.ID
		}
	}
	want := map[string]string{"bootstrap-r1": ra2.TokenID, "bootstrap-r2": rb.TokenID}
	if diff := cmp.Diff(want, active, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("active tokens by name (-want +got):\n%s", diff)
	}
	if got := st.byID[rb.TokenID]; got.Role != lifecycle.RoleAdmin {
		t.Errorf("r2's token role %q, want admin", got.Role)
	}
}
