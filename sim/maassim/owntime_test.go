package maassim_test

import (
	"net/url"
	"testing"
	"time"
)

// OwnTime is the simulated duration of each operation that ended, at the
// simulator's speed, however late the clock was read: a deploy (10 min at
// speed 100) then a release (1 min).
func TestOwnTimeIsMAASsOwnDurationAtSpeed(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	if got := st.sim.OwnTime(sid); got != 0 {
		t.Fatalf("a Ready machine's own time = %v, want 0", got)
	}
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", url.Values{})
	st.advance(time.Hour)
	wantStatus(t, st, sid, "Deployed")
	if got, want := st.sim.OwnTime(sid), 6*time.Second; got != want {
		t.Fatalf("after a deploy: %v, want %v", got, want)
	}
	mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=release", url.Values{})
	st.advance(time.Hour)
	wantStatus(t, st, sid, "Ready")
	if got, want := st.sim.OwnTime(sid), 6600*time.Millisecond; got != want {
		t.Errorf("after a release: %v, want %v", got, want)
	}
	if got := st.sim.OwnTime("nosuch"); got != 0 {
		t.Errorf("an unknown machine's own time = %v", got)
	}
}
