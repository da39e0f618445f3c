package maassim_test

import (
	"strings"
	"testing"
	"time"
)

// TestOAuthNoncesForgottenAfterTenMinutes: a used nonce is refused again
// while MAAS's clean-up would keep it (it keeps each 5 to 10 minutes) and
// forgotten after, so the simulator keeps only the last 10 minutes'
// nonces however many requests it answers.
func TestOAuthNoncesForgottenAfterTenMinutes(t *testing.T) {
	st := newSite(t, 0)
	path := "/MAAS/api/2.0/users/?op=whoami"
	use := func() resp { return st.send(t, "GET", path, nil, oauth(testKey, st.clock.Now().Unix(), "kept-nonce")) }
	if r := use(); r.code != 200 {
		t.Fatalf("first use: %d %s", r.code, r.body)
	}
	st.clock.Advance(9 * time.Minute)
	if r := use(); r.code != 401 || !strings.Contains(r.body, "Nonce already used: kept-nonce") {
		t.Fatalf("reused after 9 minutes: %d %q, want 401 Nonce already used", r.code, r.body)
	}
	st.clock.Advance(61 * time.Second)
	// Any request prunes; the nonce's second use is then a first one.
	if r := st.send(t, "GET", path, nil, oauth(testKey, st.clock.Now().Unix(), "other-nonce")); r.code != 200 {
		t.Fatalf("fresh nonce: %d %s", r.code, r.body)
	}
	if r := use(); r.code != 200 {
		t.Fatalf("reused after 10 minutes: %d %q, want 200 (forgotten, as MAAS's clean-up forgets it)", r.code, r.body)
	}
}
