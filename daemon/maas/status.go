package maas

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// Status is a MAAS node status number; the enum, its names and Failed()
// live in the domain (lifecycle.MaasStatus), so the client and the
// simulator share one table.
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
