package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

func TestProbes(t *testing.T) {
	down := CheckerFunc(func(context.Context) error { return errors.New("store: closed") })
	up := CheckerFunc(func(context.Context) error { return nil })
	tests := []struct {
		name      string
		set       func(*Readiness)
		readyCode int
		readyBody string
	}{
		{"starting", func(*Readiness) {}, 503, "not ready: starting"},
		{"serving", func(r *Readiness) { r.Serve(up) }, 200, "ready"},
		{"store not answering", func(r *Readiness) { r.Serve(down) }, 503, "not ready: store: closed"},
		{"stopping", func(r *Readiness) { r.Serve(up); r.Stop() }, 503, "not ready: stopping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Readiness
			tt.set(&r)
			h := NewRouter(Deps{Readiness: &r, Metrics: NewRegistry("test")})
			if code, _ := get(t, h, "/healthz"); code != http.StatusOK {
				t.Errorf("/healthz = %d, want 200 in every phase", code)
			}
			code, body := get(t, h, "/readyz")
			if code != tt.readyCode || strings.TrimSpace(body) != tt.readyBody {
				t.Errorf("/readyz = %d %q, want %d %q", code, body, tt.readyCode, tt.readyBody)
			}
		})
	}
}

func TestMetrics(t *testing.T) {
	h := NewRouter(Deps{Readiness: &Readiness{}, Metrics: NewRegistry("1.2.3")})
	code, body := get(t, h, "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics = %d", code)
	}
	var p expfmt.TextParser
	families, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	for _, name := range []string{"maas_sidecar_build_info", "go_goroutines", "process_start_time_seconds"} {
		if _, ok := families[name]; !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	bi := families["maas_sidecar_build_info"].GetMetric()
	if len(bi) != 1 || bi[0].GetGauge().GetValue() != 1 || !hasLabel(bi[0].GetLabel(), "version", "1.2.3") {
		t.Errorf("maas_sidecar_build_info = %v, want one sample = 1 with version=1.2.3", bi)
	}
}

func TestUnknownRoute(t *testing.T) {
	h := NewRouter(Deps{Readiness: &Readiness{}, Metrics: NewRegistry("x")})
	if code, _ := get(t, h, "/api/v1/nothing"); code != http.StatusNotFound {
		t.Errorf("unknown route = %d, want 404", code)
	}
}

// TestDebugRoutesToAdmin: /debug/pprof/ goes to the admin handler (which
// checks the admin role), not to the default mux or a 404.
func TestDebugRoutesToAdmin(t *testing.T) {
	var got []string
	adm := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = append(got, r.URL.Path) })
	h := NewRouter(Deps{Readiness: &Readiness{}, Metrics: NewRegistry("x"), Admin: adm})
	for _, p := range []string{"/debug/pprof/", "/debug/pprof/heap"} {
		if code, _ := get(t, h, p); code != http.StatusOK {
			t.Errorf("%s = %d", p, code)
		}
	}
	if strings.Join(got, ",") != "/debug/pprof/,/debug/pprof/heap" {
		t.Errorf("admin handler saw %v", got)
	}
}
