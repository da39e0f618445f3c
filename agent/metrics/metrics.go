package metrics

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Task results, the result label of gpuaas_node_agent_tasks_total.
const (
	ResultSuccess     = "success"     // the handler ran and succeeded
	ResultFailure     = "failure"     // the handler ran and failed
	ResultRejected    = "rejected"    // refused before running (signature, node, expiry, sequence)
	ResultUnsupported = "unsupported" // no handler for the type
)

// Refusal reasons, the reason label of gpuaas_node_agent_refusals_total.
const (
	RefusedCertificate     = "certificate"      // the daemon refused the client certificate (401/403)
	RefusedEnrollmentToken = "enrollment_token" // the daemon refused the enrollment token for good
)

// OtherType is the type label of a task whose type the agent does not know.
const OtherType = "other"

// Metrics are the agent's own metrics. Safe for concurrent use.
type Metrics struct {
	mu                                   sync.Mutex // guards the families' samples
	types                                []string
	tasks, refusals                      *family
	contact, enrolled, enrolledAt, wrote *family
	all                                  []*family       // in the order they are written (by name)
	health                               *healthFamilies // nil until the watch's first pass
	isEnrolled                           atomic.Bool
	changed                              chan struct{}
}

// New registers the metrics; types are the task types the agent runs
// (the type label's values besides OtherType).
func New(version string, types []string) *Metrics {
	m := &Metrics{types: slices.Clone(types), changed: make(chan struct{}, 1),
		tasks: newFamily("counter", "gpuaas_node_agent_tasks_total",
			"Tasks the agent handled since it started, by task type and result.", "type", "result"),
		refusals: newFamily("counter", "gpuaas_node_agent_refusals_total",
			"Refusals by the daemon since the agent started, by reason (certificate, enrollment_token).", "reason"),
		contact: newFamily("gauge", "gpuaas_node_agent_last_contact_timestamp_seconds",
			"Unix time of the last request the daemon accepted (poll, enrollment, renewal, result)."),
		enrolled: newFamily("gauge", "gpuaas_node_agent_enrolled",
			"1 while the agent holds a certificate the daemon has not refused, else 0."),
		enrolledAt: newFamily("gauge", "gpuaas_node_agent_last_enrollment_timestamp_seconds",
			"Unix time of the agent's last successful enrollment since it started."),
		wrote: newFamily("gauge", "gpuaas_node_agent_metrics_write_timestamp_seconds",
			"Unix time this file was written."),
	}
	build := newFamily("gauge", "gpuaas_node_agent_build_info",
		"Always 1; the agent's version and Go version as labels.", "version", "goversion")
	build.at(version, runtime.Version()).v = 1
	for _, t := range append(slices.Clone(types), OtherType) {
		for _, r := range []string{ResultSuccess, ResultFailure, ResultRejected, ResultUnsupported} {
			m.tasks.at(t, r)
		}
	}
	m.refusals.at(RefusedCertificate)
	m.refusals.at(RefusedEnrollmentToken)
	m.all = []*family{m.tasks, m.refusals, m.contact, m.enrolled, m.enrolledAt, m.wrote, build}
	slices.SortFunc(m.all, func(a, b *family) int { return strings.Compare(a.name, b.name) })
	return m
}

// update runs f under the lock, then signals a change.
func (m *Metrics) update(f func()) {
	m.mu.Lock()
	f()
	m.mu.Unlock()
	m.notify()
}

// TaskDone counts a task of type typ that ended with result.
func (m *Metrics) TaskDone(typ, result string) {
	if !slices.Contains(m.types, typ) {
		typ = OtherType
	}
	m.update(func() { m.tasks.at(typ, result).v++ })
}

// Contacted records a request the daemon accepted at t.
func (m *Metrics) Contacted(t time.Time) {
	m.update(func() { m.contact.at().v = seconds(t) })
}

// Enrolled records a successful enrollment at t.
func (m *Metrics) Enrolled(t time.Time) {
	m.mu.Lock()
	m.enrolledAt.at().v = seconds(t)
	m.mu.Unlock()
	m.SetEnrolled(true)
}

// SetEnrolled says whether the agent holds a certificate the daemon has
// not refused; it notifies only when that changes.
func (m *Metrics) SetEnrolled(ok bool) {
	if m.isEnrolled.Swap(ok) == ok {
		return
	}
	v := 0.0
	if ok {
		v = 1
	}
	m.update(func() { m.enrolled.at().v = v })
}

// Refused counts a refusal by the daemon (RefusedCertificate or
// RefusedEnrollmentToken).
func (m *Metrics) Refused(reason string) {
	m.update(func() { m.refusals.at(reason).v++ })
}

// Changed is signalled (without blocking) after every change.
func (m *Metrics) Changed() <-chan struct{} { return m.changed }

func (m *Metrics) notify() {
	select {
	case m.changed <- struct{}{}:
	default:
	}
}

func seconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }
