// Command gpuaas-node-agent is the GPU node agent: it enrolls with the
// daemon using the one-time token cloud-init left, then long-polls for
// typed, signed tasks over mutual TLS and runs them one at a time.
//
// Usage:
//
//	gpuaas-node-agent [--config PATH] [--root DIR] [--state-dir DIR] [--log-level LEVEL]
//	gpuaas-node-agent --version
//	gpuaas-node-agent check [--validate] [--diag-level N] [--scrub [--kill-processes]] [--root DIR] [--config PATH]
//	gpuaas-node-agent check --health [--root DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/systemd/sdbus"
	"github.com/gpuaas/maas-sidecar/agent/systemd/sdexec"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/inventory"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
	"github.com/gpuaas/maas-sidecar/internal/sdnotify"

	// The task catalog: one package per task type.
	_ "github.com/gpuaas/maas-sidecar/agent/task/canary"
	_ "github.com/gpuaas/maas-sidecar/agent/task/drain"
	_ "github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	_ "github.com/gpuaas/maas-sidecar/agent/task/heartbeat"
	_ "github.com/gpuaas/maas-sidecar/agent/task/hwsync"
	_ "github.com/gpuaas/maas-sidecar/agent/task/reboot"
	_ "github.com/gpuaas/maas-sidecar/agent/task/storage"
	_ "github.com/gpuaas/maas-sidecar/agent/task/uninstall"
	_ "github.com/gpuaas/maas-sidecar/agent/task/users"
	_ "github.com/gpuaas/maas-sidecar/agent/task/validate"
)

// flags are the command line.
type flags struct {
	config, root, stateDir, logLevel string
	version                          bool
}

func parseFlags(args []string) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("gpuaas-node-agent", flag.ContinueOnError)
	fs.StringVar(&f.config, "config", config.DefaultPath, "config file")
	fs.StringVar(&f.root, "root", "/", "host root every host path is resolved under (fixture trees in tests)")
	fs.StringVar(&f.stateDir, "state-dir", "/var/lib/gpuaas-node-agent", "directory for the agent's key, certificate and task sequence")
	fs.StringVar(&f.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	return f, fs.Parse(args)
}

// Exit codes: 0 success (and -h), 1 the agent failed, 2 the command line
// is wrong.
func main() {
	tuneGC(os.Getenv)
	err := run(os.Args[1:], os.Stdout)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "gpuaas-node-agent:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "gpuaas-node-agent:", err)
		os.Exit(1)
	}
}

// usageError is a wrong command line.
type usageError struct{ error }

func run(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "check" {
		return runCheck(args[1:], stdout)
	}
	f, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err != nil {
		return usageError{err}
	}
	if f.version {
		_, err := fmt.Fprintln(stdout, buildinfo.String())
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(f.logLevel)); err != nil {
		return errors.New("--log-level: want debug, info, warn or error")
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	cfg, err := config.Load(f.config)
	if err != nil {
		return err
	}
	root := hostroot.Root(f.root)
	ca, err := os.ReadFile(root.Path(cfg.CABundlePath))
	if err != nil {
		return fmt.Errorf("ca_bundle_path: %w", err)
	}
	clock := clockwork.NewRealClock()
	tr, err := mtls.New(cfg.APIURL, ca, clock)
	if err != nil {
		return err
	}
	ex := hostexec.Runner{Root: root}
	m, mw := agentMetrics(cfg.Metrics, root, clock, log)
	a, err := agent.New(agent.Options{Config: cfg, Root: root, State: state.Dir(f.stateDir), Transport: tr,
		Systemd: systemdFor(root, ex), Exec: ex, Policy: policy(cfg.Cleanup),
		Registry: task.Default, Clock: clock, Logger: log, Observer: observer(m), Inventory: inventory.Host})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	n := sdnotify.New(log.With("component", "sdnotify"))
	log.Info("gpuaas-node-agent started", "node", cfg.NodeID, "api_url", cfg.APIURL, "tasks", task.Default.Types(),
		"health_interval", healthInterval(cfg.Health))
	hw := healthWatch(cfg, root, ex, tr, m, a, clock, log)
	return serve(ctx, withWriter(withWatch(a.Run, hw), mw), n, watchdog(log, n, a, clock, cfg.PollTimeout+cfg.RetryMax+time.Minute))
}

// systemdFor is the agent's systemd: D-Bus on the host it runs on; under
// another host root (a simulated host) that root's systemctl, so that
// the real machine's units are never disabled, stopped or restarted.
func systemdFor(root hostroot.Root, ex task.Exec) task.Systemd {
	if root == "" || filepath.Clean(string(root)) == "/" {
		return sdbus.Manager{}
	}
	return sdexec.Manager{Exec: ex}
}

// policy maps the config's cleanup section to the tasks' policy.
func policy(c config.Cleanup) task.Policy {
	return task.Policy{KeepUsers: c.KeepUsers, AgentUID: os.Getuid(), ScratchRoots: c.ScratchRoots, ScratchPaths: c.ScratchPaths,
		MountAllowlist: c.MountAllowlist, WekaConfigPaths: c.WekaConfigPaths}
}
