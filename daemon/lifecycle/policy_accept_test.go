package lifecycle

import (
	"encoding/json"
	"testing"
)

// The onboarding acceptance is on by default: in a new site's policy, in
// a policy stored before the setting existed, and after a patch that
// leaves it alone; only an explicit false turns it off, and that stays
// off through the store's JSON.
func TestAcceptanceOnByDefault(t *testing.T) {
	if !DefaultSitePolicy("s").AcceptanceOn() {
		t.Error("the default policy has the acceptance off")
	}
	var old SitePolicy
	if err := json.Unmarshal([]byte(`{"site_id":"s","batch_max_parallel":10}`), &old); err != nil || !old.AcceptanceOn() {
		t.Errorf("a policy stored without the setting: on = %v (%v)", old.AcceptanceOn(), err)
	}
	p := DefaultSitePolicy("s")
	if err := json.Unmarshal([]byte(`{"batch_max_parallel":4}`), &p); err != nil || !p.AcceptanceOn() {
		t.Errorf("after a patch of another field: on = %v (%v)", p.AcceptanceOn(), err)
	}
	if err := json.Unmarshal([]byte(`{"onboarding_acceptance":false}`), &p); err != nil || p.AcceptanceOn() {
		t.Fatalf("after a patch turning it off: on = %v (%v)", p.AcceptanceOn(), err)
	}
	raw, _ := json.Marshal(p)
	var back SitePolicy
	if err := json.Unmarshal(raw, &back); err != nil || back.AcceptanceOn() {
		t.Errorf("off does not survive the store's JSON: %s", raw)
	}
	if a, b := DefaultSitePolicy("a"), DefaultSitePolicy("b"); a.OnboardingAcceptance == b.OnboardingAcceptance {
		t.Error("two default policies share one switch")
	}
}
