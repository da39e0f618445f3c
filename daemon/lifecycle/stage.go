package lifecycle

// Stage names one step of a run. Names are stable: they are stored in the
// journal and shown to operators.
type Stage string

// Onboarding stages (seed 000 §4.2, seed 001 §4.3), in workflow order.
const (
	StageLoadSiteConfig            Stage = "load_site_config"
	StageResolvePowerCredentials   Stage = "resolve_power_credentials"
	StageCreateOrFindInMaas        Stage = "create_or_find_in_maas"
	StageCommissionNode            Stage = "commission_node"
	StageWaitForReady              Stage = "wait_for_ready"
	StageConfigureStorage          Stage = "configure_storage"
	StageApplyRoCEPhase2           Stage = "apply_roce_phase2"
	StageEnsurePXEInterfaceAuto    Stage = "ensure_pxe_interface_auto"
	StageRenderCloudInit           Stage = "render_cloud_init"
	StageDeployViaMaas             Stage = "deploy_via_maas"
	StageWaitForDeployed           Stage = "wait_for_deployed"
	StageClassifyDeployFailure     Stage = "classify_deploy_failure"
	StageRecoverForDatasourceRetry Stage = "recover_for_datasource_retry"
	StageEnsureHardwareSync        Stage = "ensure_hardware_sync_configured"
	StageWaitForHardwareSync       Stage = "wait_for_hardware_sync_healthy"
	StageWaitForAgentEnrollment    Stage = "wait_for_agent_enrollment"
	// StageOnboardingAcceptance runs the onboarding acceptance check
	// (node.validate_clean, mode onboarding_acceptance) on the enrolled
	// host before the node first goes active, when the policy asks.
	StageOnboardingAcceptance Stage = "onboarding_acceptance"
)

// Decommission stages (seed 000 §5.2), plus enable_node which soft reset and
// reimage end with (seed 001 §5.2–§5.3).
const (
	StageDisableNode             Stage = "disable_node"
	StageForceReleaseAllocations Stage = "force_release_allocations"
	StageDrainNode               Stage = "drain_node"
	StageCleanupStorage          Stage = "cleanup_storage"
	StageScrubGPU                Stage = "scrub_gpu"
	StageValidateCleanNode       Stage = "validate_clean_node"
	StageReleaseMaasNode         Stage = "release_maas_node"
	StagePowerOffMaasNode        Stage = "power_off_maas_node"
	StageRetireNode              Stage = "retire_gpuaas_node"
	StageRemoveNodeRecord        Stage = "remove_gpuaas_node_record"
	StageCleanupSecrets          Stage = "cleanup_secrets"
	StageRemoveMaasRecord        Stage = "remove_maas_record"
	StageEnableNode              Stage = "enable_node"
)

// OnboardingStages is the onboarding catalog in order. The two deploy
// recovery stages run only on the deploy-failure path.
var OnboardingStages = []Stage{
	StageLoadSiteConfig, StageResolvePowerCredentials, StageCreateOrFindInMaas,
	StageCommissionNode, StageWaitForReady, StageConfigureStorage, StageApplyRoCEPhase2,
	StageEnsurePXEInterfaceAuto, StageRenderCloudInit, StageDeployViaMaas,
	StageWaitForDeployed, StageClassifyDeployFailure, StageRecoverForDatasourceRetry,
	StageEnsureHardwareSync, StageWaitForHardwareSync, StageWaitForAgentEnrollment,
	StageOnboardingAcceptance,
}

// DecommissionStages is the decommission superset catalog (seed 000 §5.2).
var DecommissionStages = []Stage{
	StageDisableNode, StageForceReleaseAllocations, StageDrainNode, StageCleanupStorage,
	StageScrubGPU, StageValidateCleanNode, StageLoadSiteConfig, StageReleaseMaasNode,
	StagePowerOffMaasNode, StageRetireNode, StageRemoveNodeRecord, StageCleanupSecrets,
	StageRemoveMaasRecord,
}

// ConditionalStages run only when an earlier stage routes to them.
var ConditionalStages = map[Stage]string{
	StageClassifyDeployFailure:     "runs only when wait_for_deployed sees a failed deployment",
	StageRecoverForDatasourceRetry: "runs only for a datasource-like failure within the policy's retry bound",
	StageOnboardingAcceptance:      "runs only when the site policy's onboarding_acceptance is on",
}
