package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	"github.com/gpuaas/maas-sidecar/agent/task/validate"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/jonboulle/clockwork"
)

// errCheckFailed is a check that ran and found the host not clean.
var errCheckFailed = fmt.Errorf("check: the host did not pass")

// runCheck is "gpuaas-node-agent check": the scrub (with --scrub) and the
// clean validation with a DCGM diagnostic (with --validate) on the host
// it runs on, no daemon involved; the evidence goes to stdout as JSON.
// With --health it prints one pass of the passive health watch instead.
func runCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gpuaas-node-agent check", flag.ContinueOnError)
	cfgPath := fs.String("config", config.DefaultPath, "config file for the cleanup policy (kept users, allowlists); absent: none")
	root := fs.String("root", "/", "host root every host path is resolved under")
	doScrub := fs.Bool("scrub", false, "scrub the GPUs first (reset, settings, MIG teardown): changes the host")
	kill := fs.Bool("kill-processes", false, "with --scrub, SIGKILL compute processes left on a GPU")
	doValidate := fs.Bool("validate", false, "run the clean validation")
	level := fs.Int("diag-level", 1, "dcgmi diag level 1-4; 0 runs no DCGM diagnostic")
	doHealth := fs.Bool("health", false, "print one pass of the passive health watch (readings only), alone")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *doHealth && (*doScrub || *doValidate) {
		return usageError{fmt.Errorf("check: --health goes alone")}
	}
	if *doHealth {
		return runHealthCheck(hostroot.Root(*root), stdout)
	}
	if !*doScrub && !*doValidate {
		return usageError{fmt.Errorf("check: name --validate, --scrub or both, or --health")}
	}
	if *level < 0 || *level > 4 {
		return usageError{fmt.Errorf("check: --diag-level %d: want 0-4", *level)}
	}
	var pol task.Policy
	if cfg, err := config.Load(*cfgPath); err == nil {
		pol = policy(cfg.Cleanup)
	}
	r := hostroot.Root(*root)
	env := task.Env{Root: r, Exec: hostexec.Runner{Root: r}, Systemd: systemdFor(r, hostexec.Runner{Root: r}), Clock: clockwork.NewRealClock(),
		Log: slog.New(slog.NewJSONHandler(os.Stderr, nil)), Policy: pol}
	ctx := context.Background()
	var out []*wire.Evidence
	passed := true
	if *doScrub {
		res, err := gpuscrub.Handler{}.Run(ctx, env, must(json.Marshal(wire.GPUScrubPayload{KillProcesses: *kill})))
		out, passed = append(out, res.Evidence), passed && err == nil
	}
	if *doValidate {
		p := wire.ValidateCleanPayload{DCGM: &wire.DCGMPolicy{Level: *level, Off: *level == 0}}
		res, err := validate.Handler{}.Run(ctx, env, must(json.Marshal(p)))
		out, passed = append(out, res.Evidence), passed && err == nil
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	if !passed {
		return errCheckFailed
	}
	return nil
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
