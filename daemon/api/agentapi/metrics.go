package agentapi

import (
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
	"github.com/prometheus/client_golang/prometheus"
)

// Enrollment results, the values of maas_sidecar_agent_enroll_total's
// result label.
const (
	EnrollOK          = "ok"
	EnrollReplayed    = "replayed" // a retry with the same key: the same certificate
	EnrollRateLimited = "rate_limited"
	EnrollInvalid     = "invalid" // a malformed request or CSR
	EnrollRefused     = "refused" // unknown, used, expired or another node's token
	EnrollError       = "error"   // the daemon failed (store, CA)
	EnrollRenewed     = "renewed" // an expired token replaced under the onboarding's grant
)

// Authentication failure reasons, the values of
// maas_sidecar_agent_auth_failures_total's reason label.
const (
	AuthNoCertificate  = "no_certificate"
	AuthBadCertificate = "bad_certificate"
	AuthOtherNode      = "other_node"
	AuthUnknownNode    = "unknown_node"
	AuthDeleted        = "deleted"
	AuthRevoked        = "revoked"    // the node has no current certificate
	AuthSuperseded     = "superseded" // an older certificate than the node's current one
)

// Metrics are the agent API's. A nil *Metrics records nothing.
type Metrics struct {
	enroll *prometheus.CounterVec
	boot   *prometheus.CounterVec
	auth   *prometheus.CounterVec
	beats  prometheus.Counter
	conns  *prometheus.CounterVec
}

// NewMetrics registers the agent API metrics with reg, every label value
// at zero so that rate() sees the first failure.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		enroll: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_agent_enroll_total",
			Help: "Agent enrollment requests by result."}, []string{"result"}),
		boot: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_agent_bootstrap_fetches_total",
			Help: "Bootstrap script fetches by manual hosts, by result."}, []string{"result"}),
		auth: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_agent_auth_failures_total",
			Help: "Agent requests refused at authentication, by reason."}, []string{"reason"}),
		beats: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_agent_heartbeats_total",
			Help: "Agent long polls (the agents' heartbeat) accepted after authentication."}),
		conns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_agent_conns_refused_total",
			Help: "Agent listener connections closed before serving, by reason (per_source, unauthenticated_share, max_conns, handshake)."},
			[]string{"reason"}),
	}
	for _, r := range connguard.Reasons {
		m.conns.WithLabelValues(r)
	}
	for _, r := range []string{EnrollOK, EnrollReplayed, EnrollRateLimited, EnrollInvalid, EnrollRefused, EnrollError,
		EnrollRenewed} {
		m.enroll.WithLabelValues(r)
	}
	for _, r := range []string{EnrollOK, EnrollRateLimited, EnrollInvalid, EnrollRefused, EnrollError} {
		m.boot.WithLabelValues(r)
	}
	for _, r := range []string{AuthNoCertificate, AuthBadCertificate, AuthOtherNode, AuthUnknownNode,
		AuthDeleted, AuthRevoked, AuthSuperseded} {
		m.auth.WithLabelValues(r)
	}
	reg.MustRegister(m.enroll, m.boot, m.auth, m.beats, m.conns)
	return m
}

func (m *Metrics) enrolled(result string) {
	if m != nil {
		m.enroll.WithLabelValues(result).Inc()
	}
}

func (m *Metrics) fetched(result string) {
	if m != nil {
		m.boot.WithLabelValues(result).Inc()
	}
}

// BootstrapFetches is the counter of one bootstrap fetch result (the
// enrollment results but replayed and renewed).
func (m *Metrics) BootstrapFetches(result string) prometheus.Counter {
	return m.boot.WithLabelValues(result)
}

func (m *Metrics) heartbeat() {
	if m != nil {
		m.beats.Inc()
	}
}

func (m *Metrics) refused(reason string) {
	if m != nil {
		m.auth.WithLabelValues(reason).Inc()
	}
}

// Enrollments is the counter of one enrollment result (for tests and
// dashboards built in code).
func (m *Metrics) Enrollments(result string) prometheus.Counter {
	return m.enroll.WithLabelValues(result)
}

// Heartbeats is the counter of accepted agent polls.
func (m *Metrics) Heartbeats() prometheus.Counter { return m.beats }

// AuthFailures is the counter of one refusal reason.
func (m *Metrics) AuthFailures(reason string) prometheus.Counter {
	return m.auth.WithLabelValues(reason)
}

// connRefused counts a connection the listener closed before serving.
func (m *Metrics) connRefused(reason string) {
	if m != nil {
		m.conns.WithLabelValues(reason).Inc()
	}
}

// ConnsRefused is the counter of one connection refusal reason.
func (m *Metrics) ConnsRefused(reason string) prometheus.Counter {
	return m.conns.WithLabelValues(reason)
}
