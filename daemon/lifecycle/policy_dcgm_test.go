package lifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDCGMLevelPerModeAndPolicy(t *testing.T) {
	p := DefaultSitePolicy("s")
	bounds := map[string]int{"1": 300, "2": 600, "3": 2400, "4": 10800}
	for mode, want := range map[DecommissionMode]int{ModeSoftReset: 1, ModeReimage: 2, ModeFullDecommission: 2, DCGMOnboarding: 3} {
		if diff := cmp.Diff(DCGMChoice{Level: want, TimeoutSeconds: bounds}, p.DCGMFor(mode, false)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", mode, diff)
		}
	}
	if d := p.DCGMFor(ModeSoftReset, true); !d.Escalate || d.Level != 1 {
		t.Errorf("escalation is the agent's to apply: %+v", d)
	}
	if p.DCGMExtra() != 2400*time.Second {
		t.Errorf("extra = %s, want level 3's bound (reimage 2 escalated)", p.DCGMExtra())
	}
	p.DCGMLevelSoftReset, p.DCGMTimeoutSeconds = 2, map[string]int{"2": 60}
	if d := p.DCGMFor(ModeSoftReset, false); d.Level != 2 || d.TimeoutSeconds["2"] != 60 || d.TimeoutSeconds["1"] != 300 {
		t.Errorf("policy levels: %+v", d)
	}
	p.DCGMOff = true
	if d := p.DCGMFor(ModeReimage, true); !d.Off || p.DCGMExtra() != 0 {
		t.Errorf("off: %+v", d)
	}
}

func TestDCGMPolicyValidation(t *testing.T) {
	for field, edit := range map[string]func(*SitePolicy){
		"dcgm_level_reimage":   func(p *SitePolicy) { p.DCGMLevelReimage = 5 },
		"dcgm_timeout_seconds": func(p *SitePolicy) { p.DCGMTimeoutSeconds = map[string]int{"5": 60} },
	} {
		p := DefaultSitePolicy("s")
		edit(&p)
		if err := p.Validate(); err == nil || ErrorField(err) != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	p := DefaultSitePolicy("s")
	p.DCGMTimeoutSeconds = map[string]int{"2": 10}
	if err := p.Validate(); err == nil {
		t.Error("a 10 s bound validated")
	}
}
