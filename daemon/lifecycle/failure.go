package lifecycle

// FailureClass is the first-class classification of a failed stage
// (seed 001 §4.7). Recovery is decided by class, never by error text.
type FailureClass string

// The failure classes: the eleven of seed 001 §4.7 and two of decommission.
const (
	FailInputConfig            FailureClass = "input_config_error"
	FailSiteCapabilityMissing  FailureClass = "site_capability_missing"
	FailUpstreamTransient      FailureClass = "upstream_transient"
	FailBMCPower               FailureClass = "bmc_power_failure"
	FailPXEDiscovery           FailureClass = "pxe_discovery_failure"
	FailHardwareMismatch       FailureClass = "hardware_mismatch"
	FailDeployCloudInit        FailureClass = "deploy_cloud_init_failure"
	FailPostDeployConnectivity FailureClass = "post_deploy_connectivity_failure"
	FailHardwareSync           FailureClass = "hardware_sync_failure"
	FailAgentEnrollment        FailureClass = "agent_enrollment_failure"
	FailStateAmbiguity         FailureClass = "state_ambiguity"
	// The decommission classes (seed 001 §5.8): an agent task that failed
	// or was not taken within the policy timeout (an unreachable agent),
	// and a node that failed clean validation and was quarantined.
	FailAgentTask         FailureClass = "agent_task_failure"
	FailCleanupValidation FailureClass = "cleanup_validation_failure"
	// FailOnboardingAcceptance: the onboarding acceptance check failed
	// and the node is quarantined instead of going active.
	FailOnboardingAcceptance FailureClass = "onboarding_acceptance_failure"
)

// Handling is a failure class's default treatment.
type Handling struct {
	// Retry says whether the runner retries automatically; MaxAttempts bounds
	// the attempts of the failing stage (1 means no retry). For
	// deploy_cloud_init_failure the bound comes from site policy
	// (max_deploy_retry_attempts) and PolicyBound is set.
	Retry       bool
	MaxAttempts int
	PolicyBound bool
	// LandsIn is the job state once retries are exhausted (or at once).
	LandsIn JobState
	// Recommended is the operator action the read model suggests.
	Recommended Action
	// Advice is the one-line operator guidance shown with the failure.
	Advice string
}

var handlings = map[FailureClass]Handling{
	FailInputConfig: {false, 1, false, JobFailedManualIntervention, ActionCancel,
		"fix the request or site configuration; cancel and submit again, or rerun once fixed"},
	FailSiteCapabilityMissing: {false, 1, false, JobFailedManualIntervention, ActionResume,
		"fix the site capability or policy, then resume"},
	FailUpstreamTransient: {true, 5, false, JobFailedRetryable, ActionResume,
		"MAAS or Vault was unavailable; resume once it is reachable"},
	FailBMCPower: {true, 3, false, JobFailedManualIntervention, ActionRetryStage,
		"check BMC reachability and credentials, then retry the stage"},
	FailPXEDiscovery: {true, 3, false, JobFailedManualIntervention, ActionRetryStage,
		"check PXE wiring and the IPMI boot order, then retry the stage"},
	FailHardwareMismatch: {false, 1, false, JobFailedManualIntervention, ActionRetryStage,
		"the machine does not match the expected hardware; fix it, then retry the stage"},
	FailDeployCloudInit: {true, 1, true, JobFailedManualIntervention, ActionRestartClean,
		"deploy failed after the bounded datasource retry; inspect MAAS events, then restart clean"},
	FailPostDeployConnectivity: {true, 3, false, JobFailedManualIntervention, ActionRetryStage,
		"the deployed host is not reachable; check its network, then retry the stage"},
	FailHardwareSync: {true, 3, false, JobFailedManualIntervention, ActionRetryStage,
		"MAAS hardware sync is not healthy; check maas-agent on the host, then retry the stage"},
	FailAgentEnrollment: {true, 2, false, JobFailedManualIntervention, ActionResume,
		"the agent did not enroll; check it can reach the agent API, then resume (a late enrollment is adopted)"},
	FailStateAmbiguity: {false, 1, false, JobFailedManualIntervention, ActionAdoptObservedState,
		"observed state disagrees with the run; inspect MAAS, then adopt the observed state or restart clean"},
	FailAgentTask: {false, 1, false, JobFailedManualIntervention, ActionRetryStage,
		"the node agent failed a task or did not take it in time; check the host and its agent, then retry the stage"},
	FailCleanupValidation: {false, 1, false, JobFailedManualIntervention, ActionRetryStage,
		"the node failed clean validation and is quarantined; read the task evidence, clean the host, then retry the stage"},
	FailOnboardingAcceptance: {false, 1, false, JobFailedManualIntervention, ActionRetryStage,
		"the new node failed its acceptance check and is quarantined; read the task evidence, repair the host, then retry the stage"},
}

// FailureClasses lists every class.
var FailureClasses = []FailureClass{
	FailInputConfig, FailSiteCapabilityMissing, FailUpstreamTransient, FailBMCPower,
	FailPXEDiscovery, FailHardwareMismatch, FailDeployCloudInit, FailPostDeployConnectivity,
	FailHardwareSync, FailAgentEnrollment, FailStateAmbiguity, FailAgentTask, FailCleanupValidation,
	FailOnboardingAcceptance,
}

// Valid reports whether c is a known class.
func (c FailureClass) Valid() bool { _, ok := handlings[c]; return ok }

// DefaultHandling returns c's default handling. An unknown class is treated
// as state ambiguity: stop automation and ask a human.
func (c FailureClass) DefaultHandling() Handling {
	if h, ok := handlings[c]; ok {
		return h
	}
	return handlings[FailStateAmbiguity]
}

// AttemptBound returns the attempts allowed for c given the site's
// max_deploy_retry_attempts, which bounds the datasource redeploy path.
func (c FailureClass) AttemptBound(maxDeployRetries int) int {
	h := c.DefaultHandling()
	if h.PolicyBound {
		return 1 + maxDeployRetries
	}
	return h.MaxAttempts
}
