package gpu

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Judge returns why s is not a clean GPU state (empty when it is): no
// compute process, memory used known and at most maxMiB, uncorrectable
// volatile ECC count known and zero, no pending page retirement or row
// remap (and at least one of the two known: [N/A] under MIG is not
// clean), no MIG change pending, no recovery action, fabric Completed,
// no XGMI error (AMD).
func Judge(s wire.GPUState, maxMiB int64) []string {
	var why []string
	if n := len(s.ComputeProcesses); n > 0 {
		why = append(why, fmt.Sprintf("%d compute process(es) running", n))
	}
	switch {
	case s.MemoryUsedMiB == nil:
		why = append(why, "memory used unknown")
	case *s.MemoryUsedMiB > maxMiB:
		why = append(why, fmt.Sprintf("memory used %d MiB > %d MiB", *s.MemoryUsedMiB, maxMiB))
	}
	switch {
	case s.ECCUncorrectedVolatile == nil:
		why = append(why, "uncorrectable volatile ECC count unknown")
	case *s.ECCUncorrectedVolatile != 0:
		why = append(why, fmt.Sprintf("uncorrectable volatile ECC count %d", *s.ECCUncorrectedVolatile))
	}
	why = append(why, pages(s)...)
	if s.MIGPending != "" && s.MIGPending != s.MIGCurrent {
		why = append(why, fmt.Sprintf("MIG mode change pending (%s -> %s)", s.MIGCurrent, s.MIGPending))
	}
	why = append(why, settings(s)...)
	xgmi, _ := xgmiHistory(s)
	why = append(why, xgmi...)
	if s.RecoveryAction != "" && s.RecoveryAction != "None" {
		why = append(why, "recovery action "+s.RecoveryAction)
	}
	if s.FabricState != "" && s.FabricState != "Completed" && s.FabricState != "Not supported" {
		why = append(why, "fabric state "+s.FabricState)
	}
	if s.FabricStatus != "" && s.FabricStatus != "Success" && s.FabricState == "Completed" {
		why = append(why, "fabric status "+s.FabricStatus)
	}
	return why
}

// settings lists what a tenant left changed that the next tenancy would
// inherit: an ECC mode change pending (it applies at the next reset or
// reboot) and a power limit other than the GPU's default. Unknown values
// (a driver without the field) are not judged.
func settings(s wire.GPUState) []string {
	var why []string
	if s.ECCModePending != "" && s.ECCModeCurrent != "" && s.ECCModePending != s.ECCModeCurrent {
		why = append(why, fmt.Sprintf("ECC mode change pending (%s -> %s)", s.ECCModeCurrent, s.ECCModePending))
	}
	if l, d := s.PowerLimitW, s.PowerDefaultLimitW; l != nil && d != nil && *l != *d {
		why = append(why, fmt.Sprintf("power limit %.2f W, not the default %.2f W", *l, *d))
	}
	return why
}

func pages(s wire.GPUState) []string {
	var why []string
	if s.RetirementPending != nil && *s.RetirementPending {
		why = append(why, "page retirement pending")
	}
	if s.RemapPending != nil && *s.RemapPending {
		why = append(why, "row remap pending")
	}
	if s.RemapFailure != nil && *s.RemapFailure {
		why = append(why, "row remap failure recorded")
	}
	if s.RetirementPending == nil && s.RemapPending == nil {
		why = append(why, "pending retired/remapped pages unknown")
	}
	return why
}
