package lifecycle

import "strconv"

// MaasStatus is MAAS's NODE_STATUS number for a machine (MAAS 3.x,
// src/maascommon/enums/node.py). It is observed, never owned.
type MaasStatus int

// The MAAS node statuses, 0–22.
const (
	MaasNew MaasStatus = iota
	MaasCommissioning
	MaasFailedCommissioning
	MaasMissing
	MaasReady
	MaasReserved
	MaasDeployed
	MaasRetired
	MaasBroken
	MaasDeploying
	MaasAllocated
	MaasFailedDeployment
	MaasReleasing
	MaasFailedReleasing
	MaasDiskErasing
	MaasFailedDiskErasing
	MaasRescueMode
	MaasEnteringRescueMode
	MaasFailedEnteringRescueMode
	MaasExitingRescueMode
	MaasFailedExitingRescueMode
	MaasTesting
	MaasFailedTesting
)

// maasNames holds the enum name (the lowercase form is MAAS's filter value)
// and MAAS's display status_name, indexed by number.
var maasNames = [...][2]string{
	{"NEW", "New"}, {"COMMISSIONING", "Commissioning"},
	{"FAILED_COMMISSIONING", "Failed commissioning"}, {"MISSING", "Missing"},
	{"READY", "Ready"}, {"RESERVED", "Reserved"}, {"DEPLOYED", "Deployed"},
	{"RETIRED", "Retired"}, {"BROKEN", "Broken"}, {"DEPLOYING", "Deploying"},
	{"ALLOCATED", "Allocated"}, {"FAILED_DEPLOYMENT", "Failed deployment"},
	{"RELEASING", "Releasing"}, {"FAILED_RELEASING", "Releasing failed"},
	{"DISK_ERASING", "Disk erasing"}, {"FAILED_DISK_ERASING", "Failed disk erasing"},
	{"RESCUE_MODE", "Rescue mode"}, {"ENTERING_RESCUE_MODE", "Entering rescue mode"},
	{"FAILED_ENTERING_RESCUE_MODE", "Failed to enter rescue mode"},
	{"EXITING_RESCUE_MODE", "Exiting rescue mode"},
	{"FAILED_EXITING_RESCUE_MODE", "Failed to exit rescue mode"},
	{"TESTING", "Testing"}, {"FAILED_TESTING", "Failed testing"},
}

// Valid reports whether s is a known MAAS status number.
func (s MaasStatus) Valid() bool { return s >= 0 && int(s) < len(maasNames) }

// Name is the enum name, e.g. "FAILED_DEPLOYMENT".
func (s MaasStatus) Name() string {
	if !s.Valid() {
		return "UNKNOWN(" + strconv.Itoa(int(s)) + ")"
	}
	return maasNames[s][0]
}

// String is MAAS's status_name, e.g. "Failed deployment".
func (s MaasStatus) String() string {
	if !s.Valid() {
		return "Unknown(" + strconv.Itoa(int(s)) + ")"
	}
	return maasNames[s][1]
}

// ParseMaasStatusName maps a MAAS status_name back to its number.
func ParseMaasStatusName(name string) (MaasStatus, bool) {
	for i, n := range maasNames {
		if n[1] == name {
			return MaasStatus(i), true
		}
	}
	return 0, false
}

// Failed reports whether s is one of MAAS's failure states or Broken.
func (s MaasStatus) Failed() bool {
	switch s {
	case MaasFailedCommissioning, MaasBroken, MaasFailedDeployment, MaasFailedReleasing,
		MaasFailedDiskErasing, MaasFailedEnteringRescueMode, MaasFailedExitingRescueMode,
		MaasFailedTesting:
		return true
	}
	return false
}
