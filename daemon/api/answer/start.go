package answer

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// The bodies of the routes that start a run: each kind's own.

// OnboardNode is one machine to onboard: operator-supplied identity, and
// optionally its GPU count (which must be the SKU's) and a region that
// overrides the site's (seed 001 §8.1).
type OnboardNode struct {
	Hostname   string `json:"hostname"`
	IPMIIP     string `json:"ipmi_ip"`
	GPUsTotal  *int   `json:"gpus_total,omitempty"`
	RegionCode string `json:"region_code,omitempty"`
}

// OnboardRequest is POST /onboardings (seed 001 §4.1).
type OnboardRequest struct {
	SiteID     string `json:"site_id"`
	ProfileID  string `json:"profile_id"`
	SKUID      string `json:"sku_id"`
	Hostname   string `json:"hostname"`
	IPMIIP     string `json:"ipmi_ip"`
	GPUsTotal  *int   `json:"gpus_total,omitempty"`
	RegionCode string `json:"region_code,omitempty"`
}

// BatchRequest is POST /onboardings/batch: shared selectors, per-node
// identity. GPUsTotal and RegionCode apply to every node that does not
// give its own.
type BatchRequest struct {
	SiteID     string        `json:"site_id"`
	ProfileID  string        `json:"profile_id"`
	SKUID      string        `json:"sku_id"`
	GPUsTotal  *int          `json:"gpus_total,omitempty"`
	RegionCode string        `json:"region_code,omitempty"`
	Nodes      []OnboardNode `json:"nodes"`
}

// OnboardResult answers POST /onboardings.
type OnboardResult struct {
	OnboardingID string             `json:"onboarding_id"`
	NodeID       string             `json:"node_id"`
	Status       lifecycle.JobState `json:"status"`
}

// BatchMember names one run of a BatchResult.
type BatchMember struct {
	Hostname     string `json:"hostname"`
	OnboardingID string `json:"onboarding_id"`
	NodeID       string `json:"node_id"`
}

// BatchResult answers POST /onboardings/batch.
type BatchResult struct {
	BatchID     string        `json:"batch_id"`
	Onboardings []BatchMember `json:"onboardings"`
}

// DecommissionRequest is POST /nodes/{id}/decommission (seed 001 §5.1).
type DecommissionRequest struct {
	Mode           lifecycle.DecommissionMode `json:"mode"`
	Erase          lifecycle.EraseMode        `json:"erase,omitempty"`
	StorageCleanup lifecycle.StorageCleanup   `json:"storage_cleanup,omitempty"`
	Reason         string                     `json:"reason"`
}

// DecommissionResult answers POST /nodes/{id}/decommission.
type DecommissionResult struct {
	DecommissionID string                     `json:"decommission_id"`
	Mode           lifecycle.DecommissionMode `json:"mode"`
	Status         lifecycle.JobState         `json:"status"`
}
