// Package gpuscrub is the node.gpu_scrub task: for each GPU vendor on the
// node (agent/task/gpu), judge the tenancy's ECC and remap history on the
// reading taken before anything is cleared, check that no compute process
// is left (SIGKILL them when the payload allows, else fail), tear MIG down
// to the site's layout, reset the GPUs with the
// vendor's preconditions, reset clocks and compute mode, clear volatile
// ECC counters, and read every GPU back. Its evidence records each GPU's
// identity, its state before and after, every step and the verdict.
package gpuscrub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func init() { task.Register(wire.TypeGPUScrub, Handler{}) }

// Handler runs node.gpu_scrub. Vendors, when set, replaces the vendor
// tools (tests); nil uses gpu.Vendors(env).
type Handler struct {
	Vendors func(task.Env) []gpu.Vendor
}

// Timeout implements task.Timeouter: resets and fabric training are slow.
func (Handler) Timeout() time.Duration { return 20 * time.Minute }

// Run implements task.Handler.
func (h Handler) Run(ctx context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p wire.GPUScrubPayload
	if len(payload) > 0 {
		if err := json.Unmarshal(payload, &p); err != nil {
			return task.Result{}, fmt.Errorf("gpu_scrub: payload is not a JSON object of the expected shape")
		}
	}
	vendors := gpu.Vendors
	if h.Vendors != nil {
		vendors = h.Vendors
	}
	o := gpu.Options{KillProcesses: p.KillProcesses, MemoryUsedMaxMiB: p.MemoryUsedMaxMiB}
	if p.TenancySince != nil {
		o.TenancySince = *p.TenancySince
	}
	r := gpu.Scrub(ctx, env, vendors(env), o)
	ev := &wire.Evidence{Task: wire.TypeGPUScrub, CollectedAt: env.Now().UTC(), Checks: r.Checks, GPUs: r.GPUs, Tools: r.Tools}
	return task.Finish(ev, fmt.Sprintf("%d GPU(s) scrubbed", len(r.GPUs)))
}
