package lifecycle

// DecommissionMode selects what a decommission cleans up (seed 001 §5).
type DecommissionMode string

// The four modes.
const (
	ModeSoftReset        DecommissionMode = "soft_reset"
	ModeReimage          DecommissionMode = "reimage"
	ModeFullDecommission DecommissionMode = "full_decommission"
	ModeStorageCleanup   DecommissionMode = "storage_cleanup"
)

// EraseMode is the MAAS release erase option (reimage and full only).
type EraseMode string

// Erase modes.
const (
	EraseNone   EraseMode = "none"
	EraseQuick  EraseMode = "quick"
	EraseSecure EraseMode = "secure"
)

// StorageCleanup selects the storage scrubbed (soft reset and reimage).
type StorageCleanup string

// Storage cleanup options.
const (
	StorageNone  StorageCleanup = "none"
	StorageLocal StorageCleanup = "local"
	StorageWeka  StorageCleanup = "weka"
	StorageAll   StorageCleanup = "all"
	// StorageDrives erases the site policy's tenant drives with the
	// drive's own sanitize or format, proved by canaries read back.
	StorageDrives StorageCleanup = "drives"
)

// modeStages are the stages of each mode in order (seed 001 §5.2–§5.5).
// Reimage reuses the onboarding stages from configure_storage on.
var modeStages = map[DecommissionMode][]Stage{
	ModeSoftReset: {StageDisableNode, StageDrainNode, StageCleanupStorage, StageScrubGPU,
		StageValidateCleanNode, StageEnableNode},
	ModeReimage: {StageDisableNode, StageDrainNode, StageCleanupStorage, StageLoadSiteConfig,
		StageReleaseMaasNode, StageConfigureStorage, StageApplyRoCEPhase2,
		StageEnsurePXEInterfaceAuto, StageRenderCloudInit, StageDeployViaMaas,
		StageWaitForDeployed, StageEnsureHardwareSync, StageWaitForHardwareSync,
		StageWaitForAgentEnrollment, StageEnableNode},
	ModeFullDecommission: {StageDisableNode, StageForceReleaseAllocations, StageDrainNode,
		StageLoadSiteConfig, StageReleaseMaasNode, StagePowerOffMaasNode, StageRetireNode,
		StageRemoveNodeRecord, StageCleanupSecrets, StageRemoveMaasRecord},
	ModeStorageCleanup: {StageCleanupStorage, StageValidateCleanNode},
}

// DecommissionModes lists every mode.
var DecommissionModes = []DecommissionMode{ModeSoftReset, ModeReimage, ModeFullDecommission, ModeStorageCleanup}

// Stages returns the ordered stages of mode m (a copy), or nil for an unknown mode.
func (m DecommissionMode) Stages() []Stage {
	s, ok := modeStages[m]
	if !ok {
		return nil
	}
	return append([]Stage(nil), s...)
}

// TouchesMaas reports whether mode m makes any MAAS call.
func (m DecommissionMode) TouchesMaas() bool { return m == ModeReimage || m == ModeFullDecommission }

// DecommissionRequest is the validated input of a decommission.
type DecommissionRequest struct {
	Mode    DecommissionMode
	Erase   EraseMode
	Storage StorageCleanup
	Reason  string
}

// Validate checks the request against the mode's options: erase applies to
// reimage and full decommission only, storage cleanup to soft reset and
// reimage only (storage_cleanup mode needs a target other than none).
func (r DecommissionRequest) Validate() error {
	const op = "lifecycle.DecommissionRequest"
	if _, ok := modeStages[r.Mode]; !ok {
		return Invalid(op, "mode", "mode %q is not one of soft_reset, reimage, full_decommission, storage_cleanup", r.Mode)
	}
	switch r.Erase {
	case "", EraseNone:
	case EraseQuick, EraseSecure:
		if !r.Mode.TouchesMaas() {
			return Invalid(op, "erase", "erase %q applies only to reimage and full_decommission", r.Erase)
		}
	default:
		return Invalid(op, "erase", "erase %q is not one of none, quick, secure", r.Erase)
	}
	switch r.Storage {
	case "", StorageNone:
		if r.Mode == ModeStorageCleanup {
			return Invalid(op, "storage_cleanup", "storage_cleanup mode needs local, weka, all or drives")
		}
	case StorageLocal, StorageWeka, StorageAll, StorageDrives:
		if r.Mode == ModeFullDecommission {
			return Invalid(op, "storage_cleanup", "storage_cleanup does not apply to full_decommission")
		}
	default:
		return Invalid(op, "storage_cleanup", "storage_cleanup %q is not one of none, local, weka, all, drives", r.Storage)
	}
	return nil
}
