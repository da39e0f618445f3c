package health

import (
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Report bounds: what one host can have, with room.
const (
	maxGPUs       = 64
	maxXids       = 1024
	maxUnreadable = 64
	maxIDLen      = 128
)

// checkReport returns the report's interval, or invalid naming the first
// bad field.
func checkReport(r wire.HealthReport) (time.Duration, error) {
	const op = "health.Report"
	if r.BootID == "" || len(r.BootID) > maxIDLen {
		return 0, lifecycle.Invalid(op, "boot_id", "boot_id must be 1-%d characters", maxIDLen)
	}
	if r.Seq == 0 {
		return 0, lifecycle.Invalid(op, "seq", "seq must be 1 or more")
	}
	if r.TakenAt.IsZero() {
		return 0, lifecycle.Invalid(op, "taken_at", "taken_at is required")
	}
	d, err := time.ParseDuration(r.Interval)
	if err != nil || d < time.Second || d > 24*time.Hour {
		return 0, lifecycle.Invalid(op, "interval", "interval %q must be a duration of 1s to 24h, such as 60s", r.Interval)
	}
	if r.GPUCount < 0 || r.GPUCount > maxGPUs {
		return 0, lifecycle.Invalid(op, "gpu_count", "gpu_count %d is outside 0-%d", r.GPUCount, maxGPUs)
	}
	if len(r.GPUs) > maxGPUs {
		return 0, lifecycle.Invalid(op, "gpus", "gpus lists %d GPUs, more than %d", len(r.GPUs), maxGPUs)
	}
	for i, g := range r.GPUs {
		if g.Index < 0 || len(g.UUID) > maxIDLen || len(g.Serial) > maxIDLen {
			return 0, lifecycle.Invalid(op, "gpus", "gpus[%d] has a negative index or an over-long id", i)
		}
	}
	if len(r.Xids) > maxXids {
		return 0, lifecycle.Invalid(op, "xids", "xids lists %d events, more than %d", len(r.Xids), maxXids)
	}
	for i, x := range r.Xids {
		if x.Code <= 0 {
			return 0, lifecycle.Invalid(op, "xids", "xids[%d] has code %d", i, x.Code)
		}
	}
	if len(r.Unreadable) > maxUnreadable {
		return 0, lifecycle.Invalid(op, "unreadable", "unreadable lists %d readings, more than %d", len(r.Unreadable), maxUnreadable)
	}
	return d, nil
}
