package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testLeaseClockJumps moves the store's wall clock an hour either way
// under a held lease. A lease's expiry is a wall-clock instant compared
// with the store's clock, so a forward jump may end it early: another
// daemon then takes it with a higher epoch and the old holder can neither
// renew nor write. A backward jump never lets a second daemon in, and a
// renewal counts its TTL from the clock as it now reads.
func testLeaseClockJumps(t *testing.T, e *env) {
	s := e.site()
	r := e.run(s.ID, "")
	a := e.lease(s.ID, "daemon-a")

	e.clock.Advance(-time.Hour)
	_, err := e.st.ClaimLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict)
	renewed, err := e.st.RenewLease(e.ctx, a, time.Minute)
	e.must(err)
	if !renewed.ExpiresAt.Equal(e.clock.Now().Add(time.Minute)) || renewed.Epoch != a.Epoch {
		t.Fatalf("renewal after the clock went back an hour = %+v, want epoch %d until %v", renewed, a.Epoch, e.clock.Now().Add(time.Minute))
	}

	e.clock.Advance(time.Hour)
	b := e.lease(s.ID, "daemon-b")
	if b.Epoch != a.Epoch+1 {
		t.Fatalf("takeover after the clock jumped forward: epoch %d, want %d", b.Epoch, a.Epoch+1)
	}
	_, err = e.st.RenewLease(e.ctx, a, time.Minute)
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.UpdateRun(e.ctx, a.Fence(), r.ID, func(x *lifecycle.Run) error { x.Hostname = "stale-writer"; return nil })
	e.wantCode(err, lifecycle.CodeConflict)

	e.clock.Advance(-time.Hour)
	_, err = e.st.ClaimLease(e.ctx, s.ID, "daemon-a", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict)
	cur, err := e.st.GetLease(e.ctx, s.ID)
	e.must(err)
	if cur.Holder != "daemon-b" || cur.Epoch != b.Epoch {
		t.Fatalf("lease after the clock went back again = %+v, want daemon-b's epoch %d", cur, b.Epoch)
	}
}
