package lifecycle

import "time"

// DriftSeverity is how loud a drift is (seed 001 §6.2, §6.4).
type DriftSeverity string

// Drift severities: critical quarantines the node and pages; warning and
// info are recorded and heal on their own.
const (
	SeverityCritical DriftSeverity = "critical"
	SeverityWarning  DriftSeverity = "warning"
	SeverityInfo     DriftSeverity = "info"
)

// DriftRule names the reconciliation rule that found a drift (seed 001
// §6.4 plus hardware-sync drift of §9.1). The set is closed, so it is a
// bounded metric label.
type DriftRule string

// The drift rules.
const (
	DriftAgentNotPolling     DriftRule = "agent_not_polling"         // Deployed, offline
	DriftReleased            DriftRule = "released_outside_workflow" // Ready/Released, active
	DriftHardwareFailure     DriftRule = "hardware_failure"          // Failed/Broken, active
	DriftRecommissioned      DriftRule = "unexpected_recommission"   // Commissioning, active
	DriftRedeployed          DriftRule = "redeployed_outside_workflow"
	DriftIPChanged           DriftRule = "ip_changed"             // Deployed with a new IP
	DriftMachineDeleted      DriftRule = "machine_deleted"        // absent from MAAS
	DriftRetiredDeployed     DriftRule = "retired_still_deployed" // Deployed, retired
	DriftPoweredOff          DriftRule = "powered_off"            // Deployed but off, active
	DriftHWSyncUnhealthy     DriftRule = "hardware_sync_unhealthy"
	DriftUnexpectedMaasState DriftRule = "unexpected_maas_status"
)

// DriftRules lists every rule.
var DriftRules = []DriftRule{DriftAgentNotPolling, DriftReleased, DriftHardwareFailure, DriftRecommissioned,
	DriftRedeployed, DriftIPChanged, DriftMachineDeleted, DriftRetiredDeployed, DriftPoweredOff,
	DriftHWSyncUnhealthy, DriftUnexpectedMaasState}

// Quarantines reports whether the rule auto-quarantines the node. Such a
// drift stays open until an admin resolves it; the others heal on their own.
func (r DriftRule) Quarantines() bool {
	switch r {
	case DriftReleased, DriftHardwareFailure, DriftRedeployed, DriftMachineDeleted:
		return true
	}
	return false
}

// NodeMaasState is the observed MAAS layer of a node (DESIGN.md §4,
// seed 001 §6.5): the last MAAS state seen and the node's drift record.
// It is never owned, only observed.
type NodeMaasState struct {
	NodeID           string     `json:"node_id"`
	SiteID           string     `json:"site_id"`
	MaasSystemID     string     `json:"maas_system_id"`
	Present          bool       `json:"present"`
	LastStatus       string     `json:"last_maas_status,omitempty"`
	LastPowerState   string     `json:"last_maas_power_state,omitempty"`
	LastIPs          []string   `json:"last_maas_ips,omitempty"`
	HWSyncEnabled    bool       `json:"hw_sync_enabled"`
	LastSync         *time.Time `json:"last_sync,omitempty"`
	NextSync         *time.Time `json:"next_sync,omitempty"`
	LastObservedAt   *time.Time `json:"last_observed_at,omitempty"`
	LastReconciledAt *time.Time `json:"last_reconciled_at,omitempty"`
	Drift
}

// Drift is a node's drift record. DriftDetected stays true until the
// drift heals (warning and info rules) or an admin resolves it; then
// ResolvedAt is set and the record is kept for history.
type Drift struct {
	DriftDetected   bool              `json:"drift_detected"`
	DriftRule       DriftRule         `json:"drift_rule,omitempty"`
	DriftSeverity   DriftSeverity     `json:"drift_severity,omitempty"`
	DriftDetails    map[string]string `json:"drift_details,omitempty"`
	DriftDetectedAt *time.Time        `json:"drift_detected_at,omitempty"`
	DriftResolvedAt *time.Time        `json:"drift_resolved_at,omitempty"`
	DriftResolvedBy string            `json:"drift_resolved_by,omitempty"`
}

// MaasStateFilter selects node MAAS states; zero fields match everything.
// Limit > 0 asks for one page: at most Limit records after the node id
// After (from the first when empty), in node id order like the full list.
type MaasStateFilter struct {
	SiteID    string
	DriftOnly bool // only records with drift_detected
	After     string
	Limit     int
}

// WebhookEvent is one MAAS change hint received by the webhook receiver
// (DESIGN.md §6), kept in the inbox until processed. It is a hint, never
// state.
type WebhookEvent struct {
	SiteID      string     `json:"site_id"`
	ID          string     `json:"id"`
	Type        string     `json:"type"`
	SystemID    string     `json:"system_id"`
	Hostname    string     `json:"hostname,omitempty"`
	StatusName  string     `json:"status_name,omitempty"`
	OccurredAt  time.Time  `json:"occurred_at"`
	ReceivedAt  time.Time  `json:"received_at"`
	Seq         uint64     `json:"seq"`
	ProcessedAt *time.Time `json:"processed_at,omitempty"`
}

// FeedCursor is how far a site's MAAS events cursor has read.
type FeedCursor struct {
	SiteID    string    `json:"site_id"`
	EventID   int64     `json:"event_id"`
	UpdatedAt time.Time `json:"updated_at"`
}

// WebhookSecretVaultPath is where a site's webhook HMAC secret lives in
// Vault: {"secret": "..."}.
func WebhookSecretVaultPath(siteID string) string {
	return "kv/maas-sites/" + siteID + "/webhook-secret"
}
