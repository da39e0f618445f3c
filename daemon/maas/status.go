package maas

// Status is a MAAS node status number (MAAS src/maascommon/enums/node.py).
// The domain's own view of it lives in lifecycle; this is the wire value.
type Status int

// MAAS node statuses, numbered as MAAS numbers them.
const (
	StatusNew Status = iota
	StatusCommissioning
	StatusFailedCommissioning
	StatusMissing
	StatusReady
	StatusReserved
	StatusDeployed
	StatusRetired
	StatusBroken
	StatusDeploying
	StatusAllocated
	StatusFailedDeployment
	StatusReleasing
	StatusFailedReleasing
	StatusDiskErasing
	StatusFailedDiskErasing
	StatusRescueMode
	StatusEnteringRescueMode
	StatusFailedEnteringRescueMode
	StatusExitingRescueMode
	StatusFailedExitingRescueMode
	StatusTesting
	StatusFailedTesting
)

var statusNames = [...]string{
	"New", "Commissioning", "Failed commissioning", "Missing", "Ready",
	"Reserved", "Deployed", "Retired", "Broken", "Deploying", "Allocated",
	"Failed deployment", "Releasing", "Releasing failed", "Disk erasing",
	"Failed disk erasing", "Rescue mode", "Entering rescue mode",
	"Failed to enter rescue mode", "Exiting rescue mode",
	"Failed to exit rescue mode", "Testing", "Failed testing",
}

// String returns MAAS's status_name for s.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "Unknown"
	}
	return statusNames[s]
}

// Failed reports whether s is one of MAAS's failed statuses or Broken.
func (s Status) Failed() bool {
	switch s {
	case StatusFailedCommissioning, StatusFailedDeployment, StatusFailedReleasing,
		StatusFailedDiskErasing, StatusFailedEnteringRescueMode, StatusFailedExitingRescueMode,
		StatusFailedTesting, StatusBroken:
		return true
	}
	return false
}
