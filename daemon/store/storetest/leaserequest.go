package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testLeaseRequests checks the handover request of a site's preferred
// daemon: only that daemon may ask, the request changes neither holder
// nor epoch nor expiry, the holder sees it on renewal, and an expired
// lease with a standing request is kept for the requester.
func testLeaseRequests(t *testing.T, e *env) {
	s := e.site()
	_, err := e.st.RequestLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict) // no preferred daemon
	s = e.prefer(s.ID, "daemon-b")
	_, err = e.st.RequestLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeNotFound) // no lease yet: claim it
	_, err = e.st.RequestLease(e.ctx, "no-site", "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.RequestLease(e.ctx, s.ID, "", time.Minute)
	e.wantCode(err, lifecycle.CodeInvalid)

	a := e.lease(s.ID, "daemon-a")
	_, err = e.st.RequestLease(e.ctx, s.ID, "daemon-c", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict) // not the preferred daemon
	e.clock.Advance(time.Second)
	req, err := e.st.RequestLease(e.ctx, s.ID, "daemon-b", 30*time.Second)
	e.must(err)
	want := a
	want.RequestedBy, want.RequestedUntil = "daemon-b", e.clock.Now().Add(30*time.Second)
	if diff := cmp.Diff(want, req); diff != "" {
		t.Fatalf("requested lease (-want +got):\n%s", diff)
	}
	if got := req.Requested(e.clock.Now()); got != "daemon-b" {
		t.Fatalf("Requested = %q", got)
	}
	renewed, err := e.st.RenewLease(e.ctx, a, time.Minute)
	e.must(err)
	if renewed.Epoch != a.Epoch || renewed.Holder != "daemon-a" || renewed.Requested(e.clock.Now()) != "daemon-b" {
		t.Fatalf("the holder must see the request on renewal: %+v", renewed)
	}
	_, err = e.st.ClaimLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict) // a request does not displace a live holder

	e.must(e.st.ReleaseLease(e.ctx, renewed))
	_, err = e.st.ClaimLease(e.ctx, s.ID, "daemon-c", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict) // kept for the requester
	_, err = e.st.ClaimLease(e.ctx, s.ID, "daemon-a", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict) // the old holder too
	b := e.lease(s.ID, "daemon-b")
	if b.Epoch != a.Epoch+1 || b.RequestedBy != "" || !b.RequestedUntil.IsZero() {
		t.Fatalf("the requester's grant must raise the epoch and clear the request: %+v", b)
	}
	own, err := e.st.RequestLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.must(err)
	if diff := cmp.Diff(b, own); diff != "" {
		t.Fatalf("a request on one's own live lease must change nothing (-want +got):\n%s", diff)
	}

	// A request that expired keeps nothing: any daemon takes an expired lease.
	e.must(e.st.ReleaseLease(e.ctx, b))
	c := e.lease(s.ID, "daemon-c")
	_, err = e.st.RequestLease(e.ctx, s.ID, "daemon-b", 10*time.Second)
	e.must(err)
	e.clock.Advance(2 * time.Minute)
	if got, _ := e.st.GetLease(e.ctx, s.ID); got.Requested(e.clock.Now()) != "" {
		t.Fatalf("an expired request still stands: %+v", got)
	}
	d := e.lease(s.ID, "daemon-a")
	if d.Epoch != c.Epoch+1 {
		t.Fatalf("takeover after the request expired: %+v", d)
	}
}

// prefer sets the site's preferred daemon.
func (e *env) prefer(siteID, daemon string) lifecycle.Site {
	e.t.Helper()
	s, err := e.st.UpdateSite(e.ctx, siteID, func(s *lifecycle.Site) error { s.PreferredDaemon = daemon; return nil })
	e.must(err)
	return s
}
