package runner

import (
	"log/slog"
	"maps"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Context is a stage's view of its run. Changes made through it are
// committed with the stage's outcome, atomically with the journal entry.
type Context struct {
	Run     lifecycle.Run
	Policy  lifecycle.SitePolicy
	Attempt int
	Log     *slog.Logger
	now     func() time.Time

	vars     map[string]string
	details  map[string]string
	observed *lifecycle.ObservedMaas
	systemID *string
	nodeID   *string
}

func newContext(r lifecycle.Run, p lifecycle.SitePolicy, log *slog.Logger, now func() time.Time) *Context {
	return &Context{Run: r, Policy: p, Attempt: r.CurrentAttempt, Log: log, now: now,
		vars: maps.Clone(r.Vars), details: map[string]string{}}
}

// Now returns the runner's clock.
func (c *Context) Now() time.Time { return c.now() }

// Var returns a workflow variable.
func (c *Context) Var(k string) string { return c.vars[k] }

// SetVar sets a workflow variable (never a secret).
func (c *Context) SetVar(k, v string) {
	if c.vars == nil {
		c.vars = map[string]string{}
	}
	c.vars[k] = v
}

// Detail adds a key to the stage event's details (never a secret).
func (c *Context) Detail(k, v string) { c.details[k] = v }

// Observe records the MAAS state the stage saw.
func (c *Context) Observe(o lifecycle.ObservedMaas) { c.observed = &o }

// SetMaasSystemID binds the run to a MAAS machine.
func (c *Context) SetMaasSystemID(id string) { c.systemID = &id }

// SetNodeID binds the run to a node record.
func (c *Context) SetNodeID(id string) { c.nodeID = &id }

// apply copies the stage's changes into r.
func (c *Context) apply(r *lifecycle.Run) {
	r.Vars = c.vars
	if c.observed != nil {
		r.Observed = *c.observed
	}
	if c.systemID != nil {
		r.MaasSystemID = *c.systemID
	}
	if c.nodeID != nil {
		r.NodeID = *c.nodeID
	}
}

// Restarting reports whether the run is compensating for restart_clean
// (it will start again) rather than for cancel (it will end).
func (c *Context) Restarting() bool { return c.vars[varThen] == thenRestart }
