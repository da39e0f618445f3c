// Package task is the agent's task registry and the environment tasks run
// in. Each task type lives in its own package under agent/task/... and
// registers itself by type in init, so adding a task (GPU scrub, clean
// validation) is a new package and a blank import in the agent's main,
// nothing more. Tasks are typed: there is no shell payload.
package task

import (
	"context"
	"io"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// Systemd is the part of systemd's D-Bus API tasks use. Unit names are
// full ("maas_hardware_sync.timer").
type Systemd interface {
	// Enable enables unit files and reloads the manager.
	Enable(ctx context.Context, units ...string) error
	// Disable disables unit files and reloads the manager.
	Disable(ctx context.Context, units ...string) error
	// Restart (re)starts a unit and waits for the job to finish.
	Restart(ctx context.Context, unit string) error
	// Stop stops a unit and waits for the job to finish.
	Stop(ctx context.Context, unit string) error
}

// Env is what a task may touch: host paths only under Root, commands only
// through Exec, systemd only through Systemd, time only through Clock
// (and Sleep, when set).
type Env struct {
	Root      hostroot.Root
	Exec      Exec
	Systemd   Systemd
	Clock     clockwork.Clock // the real clock when nil
	Log       *slog.Logger
	AgentUnit string // the agent's own unit
	// Sleep waits d or until ctx ends; nil waits on Clock.
	Sleep  func(ctx context.Context, d time.Duration) error
	Policy Policy
	// Rand is the source of canary bytes and offsets; nil is crypto/rand.
	Rand io.Reader
}

// Now is the time on env's clock.
func (env Env) Now() time.Time { return env.clock().Now() }

func (env Env) clock() clockwork.Clock {
	if env.Clock == nil {
		return clockwork.NewRealClock()
	}
	return env.Clock
}

// Policy is the node's local cleanup policy from the agent's config.
type Policy struct {
	// KeepUsers are never revoked nor counted as tenant residue.
	KeepUsers []string
	// AgentUID is the UID the agent runs as; it is never a tenant.
	AgentUID int
	// ScratchRoots bound the scratch paths (the config's and a task's)
	// storage cleanup empties: each lies at or under one of them
	// (agent/scratchpath).
	ScratchRoots []string
	// ScratchPaths are emptied by node.storage_cleanup mode local.
	ScratchPaths []string
	// MountAllowlist extends node.validate_clean's mount allowlist.
	MountAllowlist []string
	// WekaConfigPaths are removed by node.storage_cleanup mode weka.
	WekaConfigPaths []string
}

// Wait sleeps d through env.Sleep, or on env's clock when it is nil.
func (env Env) Wait(ctx context.Context, d time.Duration) error {
	if env.Sleep != nil {
		return env.Sleep(ctx, d)
	}
	if !clocks.Sleep(ctx, env.clock(), d) {
		return ctx.Err()
	}
	return nil
}

// Result is a task's outcome. After, when set, runs once the result was
// reported (node.uninstall stops the agent's own unit there). Evidence is
// the structured report of cleanup, scrub and validation tasks; it is
// sent with failures too, so a handler that fails with evidence returns
// both a Result and an error.
type Result struct {
	Message  string
	Details  map[string]string
	Evidence *wire.Evidence
	After    func(ctx context.Context) error
}

// Handler runs one task type. Run must be idempotent: a task whose result
// got lost is delivered again.
type Handler interface {
	Run(ctx context.Context, env Env, payload []byte) (Result, error)
}

// Timeouter is implemented by handlers that need a timeout other than the
// agent's task_timeout.
type Timeouter interface {
	Timeout() time.Duration
}

// Registry maps task types to handlers.
type Registry struct {
	mu sync.RWMutex
	m  map[string]Handler
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{m: map[string]Handler{}} }

// Register adds h for typ; registering a type twice panics (a wiring bug).
func (r *Registry) Register(typ string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.m[typ]; dup {
		panic("task: " + typ + " registered twice")
	}
	r.m[typ] = h
}

// Lookup returns the handler of typ.
func (r *Registry) Lookup(typ string) (Handler, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok := r.m[typ]
	return h, ok
}

// Types lists the registered types, sorted.
func (r *Registry) Types() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.m))
	for t := range r.m {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Default is the registry task packages register into.
var Default = NewRegistry()

// Register adds h for typ to Default.
func Register(typ string, h Handler) { Default.Register(typ, h) }
