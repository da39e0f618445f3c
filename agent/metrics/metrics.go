package metrics

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
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
	reg                                  *prometheus.Registry
	types                                []string
	tasks, refusals                      *prometheus.CounterVec
	contact, enrolled, enrolledAt, wrote prometheus.Gauge
	isEnrolled                           atomic.Bool
	changed                              chan struct{}
}

// New registers the metrics; types are the task types the agent runs
// (the type label's values besides OtherType).
func New(version string, types []string) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), types: slices.Clone(types), changed: make(chan struct{}, 1),
		tasks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gpuaas_node_agent_tasks_total",
			Help: "Tasks the agent handled since it started, by task type and result."}, []string{"type", "result"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "gpuaas_node_agent_refusals_total",
			Help: "Refusals by the daemon since the agent started, by reason (certificate, enrollment_token)."}, []string{"reason"}),
		contact: gauge("gpuaas_node_agent_last_contact_timestamp_seconds",
			"Unix time of the last request the daemon accepted (poll, enrollment, renewal, result)."),
		enrolled: gauge("gpuaas_node_agent_enrolled",
			"1 while the agent holds a certificate the daemon has not refused, else 0."),
		enrolledAt: gauge("gpuaas_node_agent_last_enrollment_timestamp_seconds",
			"Unix time of the agent's last successful enrollment since it started."),
		wrote: gauge("gpuaas_node_agent_metrics_write_timestamp_seconds",
			"Unix time this file was written."),
	}
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "gpuaas_node_agent_build_info",
		Help: "Always 1; the agent's version and Go version as labels."}, []string{"version", "goversion"})
	build.WithLabelValues(version, runtime.Version()).Set(1)
	for _, t := range append(slices.Clone(types), OtherType) {
		for _, r := range []string{ResultSuccess, ResultFailure, ResultRejected, ResultUnsupported} {
			m.tasks.WithLabelValues(t, r)
		}
	}
	m.refusals.WithLabelValues(RefusedCertificate)
	m.refusals.WithLabelValues(RefusedEnrollmentToken)
	m.reg.MustRegister(m.tasks, m.refusals, m.contact, m.enrolled, m.enrolledAt, m.wrote, build)
	return m
}

func gauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
}

// TaskDone counts a task of type typ that ended with result.
func (m *Metrics) TaskDone(typ, result string) {
	if !slices.Contains(m.types, typ) {
		typ = OtherType
	}
	m.tasks.WithLabelValues(typ, result).Inc()
	m.notify()
}

// Contacted records a request the daemon accepted at t.
func (m *Metrics) Contacted(t time.Time) {
	m.contact.Set(seconds(t))
	m.notify()
}

// Enrolled records a successful enrollment at t.
func (m *Metrics) Enrolled(t time.Time) {
	m.enrolledAt.Set(seconds(t))
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
	m.enrolled.Set(v)
	m.notify()
}

// Refused counts a refusal by the daemon (RefusedCertificate or
// RefusedEnrollmentToken).
func (m *Metrics) Refused(reason string) {
	m.refusals.WithLabelValues(reason).Inc()
	m.notify()
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
