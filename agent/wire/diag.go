package wire

// DCGMPolicy is the DCGM diagnostic a node.validate_clean runs: the site
// policy's level for the turnover mode (soft reset 1, reimage 2,
// onboarding acceptance 3 by default), raised one level when the
// tenancy's history shows Xid or ECC events.
type DCGMPolicy struct {
	// Off runs no diagnostic; the evidence says it was off.
	Off bool `json:"off,omitempty"`
	// Level is dcgmi diag -r 1..4.
	Level int `json:"level"`
	// Escalate raises Level by one (at most 4): the daemon saw Xid or
	// ECC events in the tenancy's history. The agent also escalates on
	// the history it reads itself.
	Escalate bool `json:"escalate,omitempty"`
	// TimeoutSeconds bounds the run, per level ("1".."4"); absent levels
	// take the agent's defaults (1: 300, 2: 1200, 3: 3600, 4: 10800).
	TimeoutSeconds map[string]int `json:"timeout_seconds,omitempty"`
}

// DiagEvidence is what the DCGM diagnostic ran and found.
type DiagEvidence struct {
	Tool string `json:"tool"`
	// State is "off", "not_requested", "missing" (no dcgmi on a host
	// with NVIDIA GPUs), "no_gpus", "timeout" or "ran".
	State          string     `json:"state"`
	RequestedLevel int        `json:"requested_level,omitempty"`
	Level          int        `json:"level,omitempty"`
	EscalatedBy    []string   `json:"escalated_by,omitempty"`
	TimeoutSeconds int        `json:"timeout_seconds,omitempty"`
	DurationMS     int64      `json:"duration_ms,omitempty"`
	Tests          []DiagTest `json:"tests,omitempty"`
	Passed         bool       `json:"passed"`
	Reason         string     `json:"reason,omitempty"`
}

// DiagTest is one diagnostic test and its result on each GPU.
type DiagTest struct {
	Category string       `json:"category,omitempty"`
	Name     string       `json:"name"`
	Status   string       `json:"status,omitempty"` // test_summary.status (4.x)
	Results  []DiagResult `json:"results,omitempty"`
}

// DiagResult is one test's result on one GPU (GPU -1: not per GPU).
type DiagResult struct {
	GPU      int      `json:"gpu"`
	Status   string   `json:"status"` // Pass, Fail, Warn, Skip, Not Run
	Warnings []string `json:"warnings,omitempty"`
}
