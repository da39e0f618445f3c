package uninstall

import (
	"context"
	"errors"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Type is the task type this package handles.
const Type = "node.uninstall"

// Package is the agent's Debian package; PurgeUnit the transient unit
// that purges it.
const (
	Package   = "gpuaas-node-agent"
	PurgeUnit = "gpuaas-node-agent-purge"
)

func init() { task.Register(Type, Handler{}) }

// Handler runs node.uninstall.
type Handler struct{}

// Run implements task.Handler: disable now, purge (or stop) after reporting.
func (Handler) Run(ctx context.Context, env task.Env, _ []byte) (task.Result, error) {
	if err := env.Systemd.Disable(ctx, env.AgentUnit); err != nil {
		return task.Result{}, err
	}
	unit, sd, ex := env.AgentUnit, env.Systemd, env.Exec
	stop := func(ctx context.Context) error { return sd.Stop(ctx, unit) }
	if !installed(ctx, ex) {
		return task.Result{
			Message: "agent unit disabled; stopping after this report (package " + Package + " not installed)",
			Details: map[string]string{"unit": unit, "package": "not installed"},
			After:   stop,
		}, nil
	}
	return task.Result{
		Message: "agent unit disabled; purging package " + Package + " after this report",
		Details: map[string]string{"unit": unit, "package": "purge scheduled", "purge_unit": PurgeUnit},
		After: func(ctx context.Context) error {
			if err := purge(ctx, ex); err != nil {
				return errors.Join(err, stop(ctx))
			}
			return nil
		},
	}, nil
}

// installed reports whether dpkg knows the package as installed; a host
// without dpkg-query has no package.
func installed(ctx context.Context, ex task.Exec) bool {
	out, err := ex.Exec(ctx, "dpkg-query", "-W", "-f=${Status}", Package)
	return err == nil && strings.HasSuffix(strings.TrimSpace(string(out)), " installed")
}

// purge starts apt-get purge in a transient unit and returns at once.
func purge(ctx context.Context, ex task.Exec) error {
	_, err := ex.Exec(ctx, "systemd-run", "--no-block", "--collect", "--quiet",
		"--unit="+PurgeUnit, "--description=Purge the "+Package+" package (node.uninstall)",
		"--setenv=DEBIAN_FRONTEND=noninteractive",
		"/usr/bin/apt-get", "purge", "-y", "-o", "DPkg::Lock::Timeout=300", Package)
	return err
}
