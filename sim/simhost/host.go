package simhost

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/inventory"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"

	_ "github.com/gpuaas/maas-sidecar/agent/task/canary"    // the agent's task catalog
	_ "github.com/gpuaas/maas-sidecar/agent/task/drain"     //
	_ "github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"  //
	_ "github.com/gpuaas/maas-sidecar/agent/task/heartbeat" //
	_ "github.com/gpuaas/maas-sidecar/agent/task/hwsync"    //
	_ "github.com/gpuaas/maas-sidecar/agent/task/storage"   //
	_ "github.com/gpuaas/maas-sidecar/agent/task/uninstall" //
	_ "github.com/gpuaas/maas-sidecar/agent/task/users"     //
	_ "github.com/gpuaas/maas-sidecar/agent/task/validate"  //
)

// Host is one booted simulated machine running the real agent.
type Host struct {
	Root    string
	Agent   *agent.Agent
	Systemd *Units
	done    chan struct{}
	err     error // the agent's Run result, set before done closes
}

// Options tune Boot.
type Options struct {
	// PollTimeout and retry bounds shorten the agent's waits in tests.
	PollTimeout, RetryInitial, RetryMax time.Duration
	Logger                              *slog.Logger
	// ToolsDir holds the fakehost and fakegpu binaries; when set the host
	// is provisioned with GPUs (default nvidia:8) and the fake tools on
	// its PATH, and boots with Residue (fakehost residue JSON; none when
	// empty).
	ToolsDir, GPUs, Residue string
}

// Boot applies userData to a fresh root and runs the agent it configures
// until ctx ends, with its passive health watch beside it (as
// health.interval says). The caller owns the agent's goroutine: Wait
// returns once it has stopped.
func Boot(ctx context.Context, root string, userData []byte, o Options) (*Host, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := provision(ctx, root, o, o.Logger); err != nil {
		return nil, err
	}
	if err := Apply(root, userData); err != nil {
		return nil, err
	}
	r := hostroot.Root(root)
	cfg, err := config.Load(r.Path(config.DefaultPath))
	if err != nil {
		return nil, err
	}
	if o.PollTimeout > 0 {
		cfg.PollTimeout, cfg.RetryInitial, cfg.RetryMax = o.PollTimeout, o.RetryInitial, o.RetryMax
	}
	ca, err := os.ReadFile(r.Path(cfg.CABundlePath))
	if err != nil {
		return nil, err
	}
	clock := clockwork.NewRealClock()
	tr, err := mtls.New(cfg.APIURL, ca, clock)
	if err != nil {
		return nil, err
	}
	sd, ex := newUnits(), hostexec.Runner{Root: r}
	a, err := agent.New(agent.Options{Config: cfg, Root: r, State: state.Dir(filepath.Join(root, "var/lib/gpuaas-node-agent")),
		Transport: tr, Systemd: sd, Exec: ex, Policy: policy(cfg.Cleanup), Registry: task.Default,
		Clock: clock, Logger: o.Logger, Inventory: inventory.Host})
	if err != nil {
		return nil, err
	}
	hw := healthWatch(cfg, r, ex, tr, a, clock, o.Logger)
	h := &Host{Root: root, Agent: a, Systemd: sd, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		h.err = runWithWatch(ctx, a.Run, hw)
	}()
	return h, nil
}

// Wait blocks until the agent has stopped (its context ended) and returns
// what its Run returned.
func (h *Host) Wait() error {
	<-h.done
	return h.err
}

// policy maps the config's cleanup section to the tasks' policy, as the
// agent's command does.
func policy(c config.Cleanup) task.Policy {
	return task.Policy{KeepUsers: c.KeepUsers, AgentUID: os.Getuid(), ScratchRoots: c.ScratchRoots, ScratchPaths: c.ScratchPaths,
		MountAllowlist: c.MountAllowlist, WekaConfigPaths: c.WekaConfigPaths}
}
