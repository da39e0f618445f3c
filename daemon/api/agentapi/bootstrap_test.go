package agentapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// scripts answers a fetch whose hash is want's with the mode as body,
// and not_found otherwise; it records the hashes it was asked for.
type scripts struct {
	want  string
	asked []string
}

func (s *scripts) BootstrapScript(_ context.Context, hash string, m lifecycle.ScriptMode) ([]byte, error) {
	s.asked = append(s.asked, hash)
	if hash != s.want {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "test", "unknown bootstrap ticket")
	}
	return []byte("script " + string(m)), nil
}

func get(t *testing.T, c *http.Client, url string) (int, string, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		var p wire.Problem
		_ = json.Unmarshal(b, &p)
		return resp.StatusCode, resp.Header.Get("Content-Type"), p.Detail
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestBootstrapRoute: the fetch needs no client certificate; the ticket
// reaches the workflow only as its hash; the mode picks the content type;
// an unknown mode is 422 and an unknown ticket 404, as problem+json;
// each fetch is counted by result.
func TestBootstrapRoute(t *testing.T) {
	tkt, other := strings.Repeat("t", 43), strings.Repeat("o", 43)
	s := &scripts{want: pki.HashToken(tkt)}
	m := agentapi.NewMetrics(prometheus.NewRegistry())
	e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) { c.Bootstrap, c.Metrics = s, m }})
	c := e.Client(nil)
	base := e.URL + "/internal/v1/bootstrap/"
	for _, tc := range []struct {
		path, ctype, body string
		status            int
	}{
		{tkt, "text/x-shellscript; charset=utf-8", "script shell", 200},
		{tkt + "?mode=shell", "text/x-shellscript; charset=utf-8", "script shell", 200},
		{tkt + "?mode=cloud_init", "text/cloud-config; charset=utf-8", "script cloud_init", 200},
		{tkt + "?mode=powershell", wire.ProblemContentType, "", 422},
		{other, wire.ProblemContentType, "", 404},
		{"short", wire.ProblemContentType, "", 404},
		{strings.Repeat("t", 42) + "%21", wire.ProblemContentType, "", 404}, // not base64url
	} {
		st, ct, body := get(t, c, base+tc.path)
		if st != tc.status || ct != tc.ctype || (tc.body != "" && body != tc.body) {
			t.Errorf("GET %s = %d %s %q, want %d %s %q", tc.path, st, ct, body, tc.status, tc.ctype, tc.body)
		}
	}
	if len(s.asked) != 4 {
		t.Errorf("%d fetches reached the workflow, want 4 (a bad mode or a malformed ticket is answered without it)", len(s.asked))
	}
	for _, h := range s.asked {
		if h == tkt || h == other {
			t.Errorf("the plaintext ticket reached the workflow")
		}
	}
	for result, want := range map[string]float64{agentapi.EnrollOK: 3, agentapi.EnrollInvalid: 1, agentapi.EnrollRefused: 3,
		agentapi.EnrollError: 0} {
		if got := testutil.ToFloat64(m.BootstrapFetches(result)); got != want {
			t.Errorf("fetches counted %s = %v, want %v", result, got, want)
		}
	}
}

// TestBootstrapRouteUnwired: an agent API without scripts answers 503.
func TestBootstrapRouteUnwired(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	if st, _, _ := get(t, e.Client(nil), e.URL+"/internal/v1/bootstrap/"+strings.Repeat("x", 43)); st != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", st)
	}
}
