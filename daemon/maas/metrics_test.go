package maas

import (
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestOpLabelsCarryNoIDs(t *testing.T) {
	cases := []struct {
		r    request
		want string
	}{
		{request{method: http.MethodGet, path: "machines/"}, "GET machines"},
		{request{method: http.MethodGet, path: "machines/abc123/"}, "GET machine"},
		{request{method: http.MethodPost, path: "machines/abc123/", maasOp: "deploy"}, "POST machine deploy"},
		{request{method: http.MethodGet, path: "nodes/abc123/blockdevices/"}, "GET machine blockdevices"},
		{request{method: http.MethodGet, path: "events/", maasOp: "query"}, "GET events query"},
		{request{method: http.MethodGet, path: "version/"}, "GET version"},
	}
	for _, c := range cases {
		if got := opLabel(c.r); got != c.want {
			t.Errorf("opLabel(%s %s op=%s) = %q, want %q", c.r.method, c.r.path, c.r.maasOp, got, c.want)
		}
	}
}

// The first request of an op registers its errors at zero under every
// code (so that rate() has a series before the first error); an error
// counts under its op and code.
func TestErrorsRegisteredAtFirstRequest(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	if n := testutil.CollectAndCount(reg, "maas_sidecar_maas_errors_total"); n != 0 {
		t.Fatalf("%d error series before any request, want 0", n)
	}
	get := request{method: http.MethodGet, path: "machines/abc/"}
	m.done(get, nil)
	m.done(get, lifecycle.Errorf(lifecycle.CodeUnavailable, "maas", "503"))
	m.done(request{method: http.MethodPost, path: "machines/abc/", maasOp: "deploy"}, nil)
	if n, want := testutil.CollectAndCount(reg, "maas_sidecar_maas_errors_total"), 2*len(lifecycle.Codes); n != want {
		t.Errorf("%d error series after two ops, want %d", n, want)
	}
	for _, c := range []struct {
		op, code string
		want     float64
	}{{"GET machine", "unavailable", 1}, {"GET machine", "internal", 0}, {"POST machine deploy", "unavailable", 0}} {
		if got := testutil.ToFloat64(m.errors.WithLabelValues(c.op, c.code)); got != c.want {
			t.Errorf("errors{%s,%s} = %v, want %v", c.op, c.code, got, c.want)
		}
	}
	if got := testutil.ToFloat64(m.requests.WithLabelValues("GET machine")); got != 2 {
		t.Errorf("requests{GET machine} = %v, want 2", got)
	}
}
