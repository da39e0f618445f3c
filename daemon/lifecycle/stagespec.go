package lifecycle

// Reentry is a stage's safe re-entry rule (seed 001 §4.10).
type Reentry struct {
	// SafeFromTop is false for stages that must never be blindly repeated
	// (deploy): they re-read observed state and adopt instead.
	SafeFromTop bool
	// RefreshFirst requires re-reading observed MAAS state before acting.
	RefreshFirst bool
	// Cleanup is "no", "maybe" or "sometimes": whether earlier partial work
	// may have to be undone before the stage runs again.
	Cleanup string
	Note    string
}

// Compensation says what undoing a stage means when its run is cancelled
// or restarted clean (seed 001 §4.6).
type Compensation string

// Compensations.
const (
	CompensateNone           Compensation = "none"
	CompensateReleaseToReady Compensation = "release_to_ready"
	CompensateDeleteNode     Compensation = "delete_node_record_and_consume_token"
	CompensateLeaveDeployed  Compensation = "leave_deployed"
)

// StageSpec is the domain description of a stage, independent of how the
// workflow implements it.
type StageSpec struct {
	Stage        Stage
	Waits        bool   // parks the run until MAAS or the agent moves
	Timeout      string // site-policy timeout key bounding a waiting stage
	TimeoutClass FailureClass
	Reentry      Reentry
	Compensation Compensation
}

func spec(s Stage, safe, refresh bool, cleanup, note string, comp Compensation) StageSpec {
	return StageSpec{Stage: s, Reentry: Reentry{safe, refresh, cleanup, note}, Compensation: comp}
}

func waiting(ss StageSpec, timeout string, class FailureClass) StageSpec {
	ss.Waits, ss.Timeout, ss.TimeoutClass = true, timeout, class
	return ss
}

var stageSpecs = map[Stage]StageSpec{
	StageLoadSiteConfig:          spec(StageLoadSiteConfig, true, false, "no", "pure read; preflight", CompensateNone),
	StageResolvePowerCredentials: spec(StageResolvePowerCredentials, true, false, "no", "pure read", CompensateNone),
	StageCreateOrFindInMaas: waiting(spec(StageCreateOrFindInMaas, true, true, "no",
		"lookup-first, adopt an existing machine", CompensateNone), "discovery_timeout", FailPXEDiscovery),
	StageCommissionNode: spec(StageCommissionNode, true, true, "no", "status-aware; skip if already Ready", CompensateNone),
	StageWaitForReady: waiting(spec(StageWaitForReady, true, true, "no",
		"inspect MAAS state before deciding timeout or failure", CompensateNone), "commission_timeout", FailPXEDiscovery),
	StageConfigureStorage:       spec(StageConfigureStorage, true, true, "no", "only while the machine is editable (Ready)", CompensateNone),
	StageApplyRoCEPhase2:        spec(StageApplyRoCEPhase2, true, true, "no", "idempotent link application", CompensateNone),
	StageEnsurePXEInterfaceAuto: spec(StageEnsurePXEInterfaceAuto, true, true, "maybe", "mutate only while the interface is editable", CompensateNone),
	StageRenderCloudInit:        spec(StageRenderCloudInit, true, true, "maybe", "recover the existing node record", CompensateDeleteNode),
	StageDeployViaMaas:          spec(StageDeployViaMaas, false, true, "sometimes", "never deploy again without checking whether the machine advanced", CompensateReleaseToReady),
	StageWaitForDeployed: waiting(spec(StageWaitForDeployed, true, true, "maybe",
		"may route to classify/recover instead of waiting", CompensateReleaseToReady), "deploy_timeout", FailDeployCloudInit),
	StageClassifyDeployFailure:     spec(StageClassifyDeployFailure, true, true, "no", "best effort; unknown means generic", CompensateNone),
	StageRecoverForDatasourceRetry: spec(StageRecoverForDatasourceRetry, true, true, "no", "abort/release back to Ready once", CompensateNone),
	StageEnsureHardwareSync: waiting(spec(StageEnsureHardwareSync, true, true, "no",
		"safe to reseed repeatedly", CompensateLeaveDeployed), "hw_sync_seed_timeout", FailHardwareSync),
	StageWaitForHardwareSync: waiting(spec(StageWaitForHardwareSync, true, true, "no",
		"wait/reseed loop", CompensateLeaveDeployed), "hw_sync_health_timeout", FailHardwareSync),
	StageWaitForAgentEnrollment: waiting(spec(StageWaitForAgentEnrollment, true, true, "maybe",
		"may need a fresh token; adopts a late enrollment", CompensateLeaveDeployed), "enrollment_timeout", FailAgentEnrollment),
	StageOnboardingAcceptance: spec(StageOnboardingAcceptance, true, true, "no",
		"finds the task it queued; bounded by agent_task_timeout and the DCGM level's bound", CompensateLeaveDeployed),
}

// SpecOf returns the domain spec of s. Stages without an entry (the
// decommission stages) are status-aware and idempotent: safe to re-enter
// after refreshing observed state, with no compensation.
func SpecOf(s Stage) StageSpec {
	if sp, ok := stageSpecs[s]; ok {
		return sp
	}
	return spec(s, true, true, "no", "status-aware and idempotent", CompensateNone)
}
