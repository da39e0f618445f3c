package lifecycle

import (
	"context"
	"strings"
	"time"
)

// HealthVerdict is the daemon's judgement of a node's health between
// turnovers, from its agent's passive readings.
type HealthVerdict string

// Health verdicts, best first; unknown counts between degraded and
// critical: a node nobody can read is not called healthy.
const (
	HealthHealthy  HealthVerdict = "healthy"
	HealthDegraded HealthVerdict = "degraded"
	HealthUnknown  HealthVerdict = "unknown"
	HealthCritical HealthVerdict = "critical"
)

// HealthVerdicts are every verdict, best first.
var HealthVerdicts = []HealthVerdict{HealthHealthy, HealthDegraded, HealthUnknown, HealthCritical}

// Rank orders verdicts: the worst has the highest rank (an unknown
// string ranks as unknown).
func (v HealthVerdict) Rank() int {
	switch v {
	case HealthHealthy:
		return 0
	case HealthDegraded:
		return 1
	case HealthCritical:
		return 3
	}
	return 2
}

// Worst returns the worse of v and w.
func (v HealthVerdict) Worst(w HealthVerdict) HealthVerdict {
	if w.Rank() > v.Rank() {
		return w
	}
	return v
}

// HealthAction is what a verdict recommends.
type HealthAction string

// Recommended actions, mildest first.
const (
	HealthActNone       HealthAction = "none"
	HealthActResetNext  HealthAction = "reset_at_next_turnover"
	HealthActDCGMLevel3 HealthAction = "dcgm_level_3"
	HealthActReboot     HealthAction = "reboot"
	HealthActRepair     HealthAction = "repair"
)

// HealthActions are every action, mildest first.
var HealthActions = []HealthAction{HealthActNone, HealthActResetNext, HealthActDCGMLevel3, HealthActReboot, HealthActRepair}

// Stronger returns the stronger of a and b.
func (a HealthAction) Stronger(b HealthAction) HealthAction {
	ra, rb := -1, -1
	for i, x := range HealthActions {
		if x == a {
			ra = i
		}
		if x == b {
			rb = i
		}
	}
	if rb > ra {
		return b
	}
	return a
}

// HealthCheck is one check's verdict with its reason and the action it
// recommends.
type HealthCheck struct {
	Name    string        `json:"name"`
	Verdict HealthVerdict `json:"verdict"`
	Action  HealthAction  `json:"action"`
	Reason  string        `json:"reason,omitempty"`
}

// NodeHealth is a node's current health: the worst of its checks, the
// report they judged (boot and sequence, to ignore replays) and whether
// the node's next turnover runs a deeper diagnostic.
type NodeHealth struct {
	NodeID  string        `json:"node_id"`
	SiteID  string        `json:"site_id"`
	Verdict HealthVerdict `json:"verdict"`
	Action  HealthAction  `json:"action"`
	Reason  string        `json:"reason,omitempty"`
	Checks  []HealthCheck `json:"checks"`
	BootID  string        `json:"boot_id,omitempty"`
	Seq     uint64        `json:"seq"`
	// ReportedAt is when the daemon took the newest report; TakenAt when
	// the agent took its readings; IntervalSeconds the watch's interval.
	ReportedAt      *time.Time `json:"reported_at,omitempty"`
	TakenAt         *time.Time `json:"taken_at,omitempty"`
	IntervalSeconds int        `json:"interval_seconds,omitempty"`
	// EscalateDiag asks the node's next turnover for a DCGM diagnostic
	// one level deeper; the turnover clears it by passing.
	EscalateDiag bool      `json:"escalate_diag,omitempty"`
	JudgedAt     time.Time `json:"judged_at"`
}

// Fault kinds the GPU cloud reports.
const (
	FaultPerformance           = "performance"
	FaultSilentDataCorruption  = "silent_data_corruption"
	FaultUnrecoverableGPUError = "unrecoverable_gpu_error"
	FaultOther                 = "other"
)

// FaultKinds are every fault kind.
var FaultKinds = []string{FaultPerformance, FaultSilentDataCorruption, FaultUnrecoverableGPUError, FaultOther}

// Fault is a fault the GPU cloud (or its tenant) reported on a node.
type Fault struct {
	Kind           string `json:"kind"`
	Reporter       string `json:"reporter"`
	Text           string `json:"text,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// Health history entry kinds.
const (
	HealthEntryVerdict = "verdict"
	HealthEntryFault   = "fault"
)

// HealthEntry is one line of a node's health history: a change of
// verdict or a reported fault, with what the daemon decided.
type HealthEntry struct {
	ID       string        `json:"id"`
	Seq      uint64        `json:"seq"`
	NodeID   string        `json:"node_id"`
	SiteID   string        `json:"site_id"`
	At       time.Time     `json:"at"`
	Kind     string        `json:"kind"`
	Verdict  HealthVerdict `json:"verdict,omitempty"`
	Action   HealthAction  `json:"action,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	Fault    *Fault        `json:"fault,omitempty"`
	Decision string        `json:"decision,omitempty"`
}

// HealthStore keeps each node's health and its history.
type HealthStore interface {
	// UpdateNodeHealth applies fn to the node's health (found false and a
	// zero record with the node's ids when it has none) and saves it; an
	// entry fn returns is appended to the node's history in the same
	// transaction (the store sets its Seq, and its ID when empty). An
	// error from fn saves nothing and is returned as is.
	// not_found for an unknown node.
	UpdateNodeHealth(ctx context.Context, nodeID string, fn func(h *NodeHealth, found bool) (*HealthEntry, error)) (NodeHealth, error)
	// GetNodeHealth returns a node's health; not_found when none was judged.
	GetNodeHealth(ctx context.Context, nodeID string) (NodeHealth, error)
	// ListNodeHealth returns every judged node's health, by node id.
	ListNodeHealth(ctx context.Context) ([]NodeHealth, error)
	// RecordFault appends a fault entry once per node and entry ID (the
	// caller derives the ID from the request's idempotency key): a retry
	// with the same fault returns the stored entry and created false;
	// another fault under the same ID is a conflict naming
	// idempotency_key. The store sets Seq and At. not_found for an
	// unknown node.
	RecordFault(ctx context.Context, e HealthEntry) (stored HealthEntry, created bool, err error)
	// UpdateHealthEntry sets the decision of a stored entry; not_found
	// when there is none.
	UpdateHealthEntry(ctx context.Context, nodeID, id, decision string) error
	// HealthHistory returns up to limit of a node's entries, newest first
	// (all when limit <= 0).
	HealthHistory(ctx context.Context, nodeID string, limit int) ([]HealthEntry, error)
}

// Fault bounds.
const (
	maxFaultReporter = 128
	maxFaultText     = 4096
	maxFaultKey      = 128
)

// Validate names the first bad field of f: kind one of FaultKinds,
// reporter 1-128 characters, text at most 4096, an idempotency key of at
// most 128 printable ASCII characters.
func (f Fault) Validate() error {
	const op = "lifecycle.Fault"
	switch {
	case !IsFaultKind(f.Kind):
		return Invalid(op, "kind", "kind %q is not one of %s", f.Kind, strings.Join(FaultKinds, ", "))
	case strings.TrimSpace(f.Reporter) == "" || len(f.Reporter) > maxFaultReporter:
		return Invalid(op, "reporter", "reporter must be 1-%d characters", maxFaultReporter)
	case len(f.Text) > maxFaultText:
		return Invalid(op, "text", "text is longer than %d characters", maxFaultText)
	case len(f.IdempotencyKey) > maxFaultKey || strings.IndexFunc(f.IdempotencyKey, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0:
		return Invalid(op, "idempotency_key", "idempotency_key must be 1-%d printable ASCII characters", maxFaultKey)
	}
	return nil
}
