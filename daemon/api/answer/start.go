package answer

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// The bodies of the routes that start a run: each kind's own.

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
