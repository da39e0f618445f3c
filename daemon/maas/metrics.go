package maas

import (
	"net/http"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics counts MAAS API requests and errors by operation. The op label
// is bounded: the HTTP method with the resource (machine ids dropped) or
// MAAS's op name, e.g. "GET machine", "POST machine deploy".
// Share one Metrics between the clients of every site. The first request
// of an op registers its errors at zero under every code, so that an
// error rate exists before the first error.
type Metrics struct {
	requests, errors *prometheus.CounterVec
	seen             sync.Map // op -> struct{}: errors registered
}

// NewMetrics registers the MAAS client metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_maas_requests_total",
			Help: "MAAS API requests (each retry counted), by operation."}, []string{"op"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_maas_errors_total",
			Help: "Failed MAAS API requests, by operation and error code."}, []string{"op", "code"}),
	}
	reg.MustRegister(m.requests, m.errors)
	return m
}

func (m *Metrics) done(r request, err error) {
	if m == nil {
		return
	}
	op := opLabel(r)
	m.requests.WithLabelValues(op).Inc()
	if _, known := m.seen.LoadOrStore(op, struct{}{}); !known {
		for _, c := range lifecycle.Codes {
			m.errors.WithLabelValues(op, string(c))
		}
	}
	if err != nil {
		m.errors.WithLabelValues(op, string(lifecycle.ErrorCode(err))).Inc()
	}
}

// opLabel names a request without its ids: the first path segment, or
// "machine" and the sub-resource under machines/<id>/, then MAAS's op.
func opLabel(r request) string {
	segs := strings.Split(strings.Trim(r.path, "/"), "/")
	res := segs[0]
	if (res == "machines" || res == "nodes") && len(segs) > 1 {
		res = "machine"
		if len(segs) > 2 {
			res += " " + segs[2]
		}
	}
	if res == "blockdevices" || res == "interfaces" {
		res = "machine " + res
	}
	out := r.method + " " + res
	if r.method == http.MethodGet && r.maasOp == "" {
		return out
	}
	if r.maasOp != "" {
		out += " " + r.maasOp
	}
	return out
}
