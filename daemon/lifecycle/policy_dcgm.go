package lifecycle

import (
	"strconv"
	"time"
)

// DCGMChoice is the DCGM diagnostic the site's policy asks of a
// node.validate_clean (the workflow puts it in the task's payload).
type DCGMChoice struct {
	Off            bool
	Level          int
	Escalate       bool
	TimeoutSeconds map[string]int
}

// DCGM diagnostic levels by default (AWS PCS's QUICK, MEDIUM and LONG).
const (
	defaultDCGMSoftReset  = 1
	defaultDCGMReimage    = 2
	defaultDCGMOnboarding = 3
	defaultDCGMRepair     = 3
)

// DCGMOnboarding is the pseudo-mode of the onboarding acceptance check.
const DCGMOnboarding DecommissionMode = "onboarding"

// DCGMRepair is the pseudo-mode of a repair run's diagnostics.
const DCGMRepair DecommissionMode = "repair"

// DCGMFor is the diagnostic node.validate_clean runs after a turnover of
// mode: reimage and full decommission take the reimage level, the
// onboarding acceptance and a repair run their own, every other mode the
// soft reset level.
func (p SitePolicy) DCGMFor(mode DecommissionMode, escalate bool) DCGMChoice {
	if p.DCGMOff {
		return DCGMChoice{Off: true}
	}
	level := orDefault(p.DCGMLevelSoftReset, defaultDCGMSoftReset)
	switch mode {
	case ModeReimage, ModeFullDecommission:
		level = orDefault(p.DCGMLevelReimage, defaultDCGMReimage)
	case DCGMOnboarding:
		level = orDefault(p.DCGMLevelOnboarding, defaultDCGMOnboarding)
	case DCGMRepair:
		level = orDefault(p.DCGMLevelRepair, defaultDCGMRepair)
	}
	return DCGMChoice{Level: level, Escalate: escalate, TimeoutSeconds: p.dcgmBounds()}
}

// defaultDCGMBounds are the seconds each level may run (level 1 takes
// seconds, 2 about 2 minutes, 3 about 15, 4 one to two hours).
var defaultDCGMBounds = map[string]int{"1": 300, "2": 600, "3": 2400, "4": 10800}

// dcgmBounds is every level's bound, the policy's over the defaults.
func (p SitePolicy) dcgmBounds() map[string]int {
	out := map[string]int{}
	for k, v := range defaultDCGMBounds {
		out[k] = v
	}
	for k, v := range p.DCGMTimeoutSeconds {
		out[k] = v
	}
	return out
}

// DCGMExtra is what a validation may run beyond agent_task_timeout: the
// bound of the highest level a turnover can reach (its level escalated).
func (p SitePolicy) DCGMExtra() time.Duration {
	if p.DCGMOff {
		return 0
	}
	top := max(orDefault(p.DCGMLevelSoftReset, defaultDCGMSoftReset), orDefault(p.DCGMLevelReimage, defaultDCGMReimage))
	return time.Duration(p.dcgmBounds()[strconv.Itoa(min(top+1, 4))]) * time.Second
}

func (p SitePolicy) validateDCGM(op string) error {
	for field, v := range map[string]int{"dcgm_level_soft_reset": p.DCGMLevelSoftReset,
		"dcgm_level_reimage": p.DCGMLevelReimage, "dcgm_level_onboarding": p.DCGMLevelOnboarding,
		"dcgm_level_repair": p.DCGMLevelRepair} {
		if v < 0 || v > 4 {
			return Invalid(op, field, "%s %d is outside 1-4 (0: the default)", field, v)
		}
	}
	for k, v := range p.DCGMTimeoutSeconds {
		if k != "1" && k != "2" && k != "3" && k != "4" {
			return Invalid(op, "dcgm_timeout_seconds", "dcgm_timeout_seconds key %q is not a level 1-4", k)
		}
		if v < 30 || v > 86400 {
			return Invalid(op, "dcgm_timeout_seconds", "dcgm_timeout_seconds[%s] %d is outside 30-86400", k, v)
		}
	}
	return nil
}
