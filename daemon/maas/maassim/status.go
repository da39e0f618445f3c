package maassim

import "strings"

// Status is a MAAS node status number (src/maascommon/enums/node.py).
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

var statusFilterNames = [...]string{
	"new", "commissioning", "failed_commissioning", "missing", "ready",
	"reserved", "deployed", "retired", "broken", "deploying", "allocated",
	"failed_deployment", "releasing", "failed_releasing", "disk_erasing",
	"failed_disk_erasing", "rescue_mode", "entering_rescue_mode",
	"failed_entering_rescue_mode", "exiting_rescue_mode",
	"failed_exiting_rescue_mode", "testing", "failed_testing",
}

// String returns MAAS's status_name ("Failed deployment").
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "Unknown"
	}
	return statusNames[s]
}

// statusFromFilter parses the lowercase name used by the status= filter.
func statusFromFilter(name string) (Status, bool) {
	for i, n := range statusFilterNames {
		if n == strings.ToLower(name) {
			return Status(i), true
		}
	}
	return 0, false
}

// AllStatuses lists every status in numeric order.
func AllStatuses() []Status {
	out := make([]Status, len(statusNames))
	for i := range out {
		out[i] = Status(i)
	}
	return out
}
