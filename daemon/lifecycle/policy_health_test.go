package lifecycle

import "testing"

// A site policy's health section: nil takes the documented defaults; a
// bad field is invalid naming it.
func TestHealthPolicy(t *testing.T) {
	d := (*HealthPolicy)(nil).WithDefaults()
	if d.StaleIntervals != 3 || !*d.QuarantineOnCritical || !*d.EscalateOnDegraded || *d.ThrottleCritical ||
		len(d.QuarantineFaults) != 2 || d.RetiredPagesCritical != 60 || d.NVLinkErrorsDegraded != 1 {
		t.Fatalf("defaults = %+v", d)
	}
	off := false
	if got := (&HealthPolicy{QuarantineOnCritical: &off, QuarantineFaults: []string{}}).WithDefaults(); *got.QuarantineOnCritical || len(got.QuarantineFaults) != 0 {
		t.Fatalf("explicit values must stay: %+v", got)
	}
	for field, h := range map[string]HealthPolicy{
		"health.stale_intervals":        {StaleIntervals: -1},
		"health.nvlink_errors_degraded": {NVLinkErrorsDegraded: -2},
		"health.retired_pages_critical": {RetiredPagesCritical: -1},
		"health.quarantine_faults":      {QuarantineFaults: []string{"meltdown"}},
	} {
		p := DefaultSitePolicy("site-1")
		p.Health = &h
		if err := p.Validate(); ErrorField(err) != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	p := DefaultSitePolicy("site-1")
	p.Health = &HealthPolicy{StaleIntervals: 5, QuarantineFaults: []string{FaultOther}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}
