package lifecycle

// HealthPolicy is what a site's policy says about the health verdict of
// its nodes between turnovers (docs/operations.md, "Node health"). Zero
// fields take the defaults, so a policy stored before they existed, or
// one without a health section, stays valid.
type HealthPolicy struct {
	// StaleIntervals is how many of its watch's intervals a node may stay
	// silent before its verdict turns unknown (0: 3).
	StaleIntervals int `json:"stale_intervals,omitempty"`
	// QuarantineOnCritical moves an active node to quarantined on a
	// critical verdict (nil: true).
	QuarantineOnCritical *bool `json:"quarantine_on_critical,omitempty"`
	// QuarantineFaults are the reported fault kinds that quarantine an
	// active node (nil: silent_data_corruption and unrecoverable_gpu_error;
	// empty: none).
	QuarantineFaults []string `json:"quarantine_faults,omitempty"`
	// EscalateOnDegraded marks a degraded node so its next turnover's
	// DCGM diagnostic runs one level deeper (nil: true).
	EscalateOnDegraded *bool `json:"escalate_on_degraded,omitempty"`
	// NVLinkErrorsDegraded is the NVLink error count (all counters of a
	// link summed) from which a link makes its GPU degraded (0: 1).
	NVLinkErrorsDegraded int64 `json:"nvlink_errors_degraded,omitempty"`
	// RetiredPagesCritical is the retired page count (single and double
	// bit) from which a GPU is critical; fewer are degraded (0: 60).
	RetiredPagesCritical int64 `json:"retired_pages_critical,omitempty"`
	// ThrottleCritical makes a GPU the hardware slows down (clock event
	// reasons HW slowdown, HW thermal slowdown, HW power brake) critical
	// rather than degraded (nil: false).
	ThrottleCritical *bool `json:"throttle_critical,omitempty"`
}

// Health policy defaults.
const (
	defaultHealthStaleIntervals = 3
	defaultNVLinkErrorsDegraded = 1
	defaultRetiredPagesCritical = 60
)

// DefaultQuarantineFaults are the fault kinds that quarantine by default.
var DefaultQuarantineFaults = []string{FaultSilentDataCorruption, FaultUnrecoverableGPUError}

// WithDefaults returns p with every zero field at its default.
func (p *HealthPolicy) WithDefaults() HealthPolicy {
	var out HealthPolicy
	if p != nil {
		out = *p
	}
	yes := true
	out.StaleIntervals = orDefault(out.StaleIntervals, defaultHealthStaleIntervals)
	if out.QuarantineOnCritical == nil {
		out.QuarantineOnCritical = &yes
	}
	if out.QuarantineFaults == nil {
		out.QuarantineFaults = DefaultQuarantineFaults
	}
	if out.EscalateOnDegraded == nil {
		out.EscalateOnDegraded = &yes
	}
	if out.NVLinkErrorsDegraded == 0 {
		out.NVLinkErrorsDegraded = defaultNVLinkErrorsDegraded
	}
	if out.RetiredPagesCritical == 0 {
		out.RetiredPagesCritical = defaultRetiredPagesCritical
	}
	if out.ThrottleCritical == nil {
		out.ThrottleCritical = new(bool)
	}
	return out
}

// validate names the first bad field of p (nil is valid).
func (p *HealthPolicy) validate(op string) error {
	if p == nil {
		return nil
	}
	if p.StaleIntervals < 0 || p.StaleIntervals > 100 {
		return Invalid(op, "health.stale_intervals", "health.stale_intervals %d is outside 1-100 (0: the default)", p.StaleIntervals)
	}
	if p.NVLinkErrorsDegraded < 0 {
		return Invalid(op, "health.nvlink_errors_degraded", "health.nvlink_errors_degraded %d is negative", p.NVLinkErrorsDegraded)
	}
	if p.RetiredPagesCritical < 0 {
		return Invalid(op, "health.retired_pages_critical", "health.retired_pages_critical %d is negative", p.RetiredPagesCritical)
	}
	for _, k := range p.QuarantineFaults {
		if !IsFaultKind(k) {
			return Invalid(op, "health.quarantine_faults", "health.quarantine_faults names %q, not a fault kind (%v)", k, FaultKinds)
		}
	}
	return nil
}

// IsFaultKind reports whether k is one of FaultKinds.
func IsFaultKind(k string) bool {
	for _, f := range FaultKinds {
		if f == k {
			return true
		}
	}
	return false
}
