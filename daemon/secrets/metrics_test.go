package secrets

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/vault/api"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Every op is registered at zero under ok and every error code, so that
// an error rate exists before the first request; a request counts under
// its result.
func TestMetricsRegisteredAtZero(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	if n, want := testutil.CollectAndCount(reg, "maas_sidecar_vault_requests_total"), 4*(1+len(lifecycle.Codes)); n != want {
		t.Errorf("%d series, want %d", n, want)
	}
	m.done("read", lifecycle.Errorf(lifecycle.CodeForbidden, "secrets.read", "denied"))
	m.done("renew", nil)
	for _, c := range []struct {
		op, result string
		want       float64
	}{{"read", "forbidden", 1}, {"read", "ok", 0}, {"renew", "ok", 1}, {"login", "unavailable", 0}} {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(c.op, c.result)); got != c.want {
			t.Errorf("requests{%s,%s} = %v, want %v", c.op, c.result, got, c.want)
		}
	}
}

// The sealed gauge follows Vault's answers: 1 after an answer saying it is
// sealed, unchanged by an unreachable Vault (nothing answered), 0 once
// Vault answers anything else.
func TestSealedGaugeFollowsVaultsAnswers(t *testing.T) {
	m := NewMetrics(prometheus.NewRegistry())
	sealed := kvErr("read", "kv/x", &api.ResponseError{StatusCode: 503, Errors: []string{"Vault is sealed"}})
	unreachable := kvErr("read", "kv/x", &url.Error{Op: "Get", URL: "http://127.0.0.1:1", Err: errors.New("connection refused")})
	for i, c := range []struct {
		err  error
		want float64
	}{{nil, 0}, {sealed, 1}, {unreachable, 1}, {lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.read", "no secret"), 0}, {sealed, 1}, {nil, 0}} {
		m.done("read", c.err)
		if got := testutil.ToFloat64(m.sealed); got != c.want {
			t.Errorf("step %d (%v): maas_sidecar_vault_sealed = %v, want %v", i, c.err, got, c.want)
		}
	}
	if !strings.Contains(sealed.Error(), "vault is sealed") {
		t.Errorf("a sealed Vault's error %q does not say so", sealed)
	}
}
