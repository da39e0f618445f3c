package maassim

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Status is a MAAS node status number (lifecycle.MaasStatus).
type Status = lifecycle.MaasStatus

// MAAS node statuses, numbered as MAAS numbers them.
const (
	StatusNew                      = lifecycle.MaasNew
	StatusCommissioning            = lifecycle.MaasCommissioning
	StatusFailedCommissioning      = lifecycle.MaasFailedCommissioning
	StatusMissing                  = lifecycle.MaasMissing
	StatusReady                    = lifecycle.MaasReady
	StatusReserved                 = lifecycle.MaasReserved
	StatusDeployed                 = lifecycle.MaasDeployed
	StatusRetired                  = lifecycle.MaasRetired
	StatusBroken                   = lifecycle.MaasBroken
	StatusDeploying                = lifecycle.MaasDeploying
	StatusAllocated                = lifecycle.MaasAllocated
	StatusFailedDeployment         = lifecycle.MaasFailedDeployment
	StatusReleasing                = lifecycle.MaasReleasing
	StatusFailedReleasing          = lifecycle.MaasFailedReleasing
	StatusDiskErasing              = lifecycle.MaasDiskErasing
	StatusFailedDiskErasing        = lifecycle.MaasFailedDiskErasing
	StatusRescueMode               = lifecycle.MaasRescueMode
	StatusEnteringRescueMode       = lifecycle.MaasEnteringRescueMode
	StatusFailedEnteringRescueMode = lifecycle.MaasFailedEnteringRescueMode
	StatusExitingRescueMode        = lifecycle.MaasExitingRescueMode
	StatusFailedExitingRescueMode  = lifecycle.MaasFailedExitingRescueMode
	StatusTesting                  = lifecycle.MaasTesting
	StatusFailedTesting            = lifecycle.MaasFailedTesting
)

// statusFromFilter parses the lowercase name used by the status= filter.
func statusFromFilter(name string) (Status, bool) {
	for _, s := range AllStatuses() {
		if strings.EqualFold(s.Name(), name) {
			return s, true
		}
	}
	return 0, false
}

// AllStatuses lists every status in numeric order.
func AllStatuses() []Status {
	var out []Status
	for s := Status(0); s.Valid(); s++ {
		out = append(out, s)
	}
	return out
}
