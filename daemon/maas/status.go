package maas

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// Status is a MAAS node status number. The enum, its names and Failed()
// live in the domain (lifecycle.MaasStatus, lifecycle.MaasReady, ...), so
// the client, the simulator and the workflows share one table.
type Status = lifecycle.MaasStatus
