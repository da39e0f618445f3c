// Package reap ends host processes for the cleanup tasks: it sends
// SIGKILL through the exec seam ("kill -KILL <pid>..."; the agent runs in
// the host PID namespace, and NVIDIA reports host PIDs too) and then
// watches /proc under the host root until they are gone. Using the exec
// seam rather than kill(2) keeps a simulated host's processes, which are
// only /proc entries, in the same code path.
package reap

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
)

// Rounds and Interval bound the wait for killed processes to go.
const (
	Rounds   = 20
	Interval = 250 * time.Millisecond
)

// Kill SIGKILLs pids and waits for them to leave /proc. It returns the
// PIDs still present after the wait.
func Kill(ctx context.Context, env task.Env, pids []int) ([]int, error) {
	if len(pids) == 0 {
		return nil, nil
	}
	args := []string{"-KILL"}
	for _, p := range pids {
		args = append(args, strconv.Itoa(p))
	}
	// kill exits 1 when some PID already exited; that is what we want.
	if _, err := env.Exec.Exec(ctx, "kill", args...); err != nil && task.ExitCode(err) != 1 {
		if errors.Is(err, task.ErrNotFound) || task.ExitCode(err) < 0 {
			return pids, fmt.Errorf("reap: %w", err)
		}
	}
	left := pids
	for i := 0; i < Rounds; i++ {
		left = alive(env, left)
		if len(left) == 0 {
			return nil, nil
		}
		if err := env.Wait(ctx, Interval); err != nil {
			return left, fmt.Errorf("reap: %w", err)
		}
	}
	return alive(env, left), nil
}

func alive(env task.Env, pids []int) []int {
	var out []int
	for _, p := range pids {
		if hostinfo.Exists(env.Root, p) {
			out = append(out, p)
		}
	}
	return out
}
