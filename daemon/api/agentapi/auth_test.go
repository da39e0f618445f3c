package agentapi_test

import (
	"bytes"
	"crypto/tls"
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// TestEveryRouteNeedsTheNodesCertificate sends each authenticated route
// with no certificate, another node's, and the node's own (which must get
// past authentication).
func TestEveryRouteNeedsTheNodesCertificate(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node, other := e.Node(lifecycle.NodeActive), e.Node(lifecycle.NodeActive)
	routes := []struct{ method, path, body string }{
		{http.MethodGet, wire.WaitPath(node) + "?timeout=0s", ""},
		{http.MethodPost, wire.ResultPath(node, "task-x"), `{"seq":1,"success":true}`},
		{http.MethodPost, wire.RenewPath(node), `{"csr":"x"}`},
	}
	certs := []struct {
		name string
		cert *tls.Certificate
		want int
	}{
		{"no certificate", nil, http.StatusUnauthorized},
		{"another node's certificate", e.ClientCert(other), http.StatusForbidden},
	}
	own := e.ClientCert(node)
	for _, r := range routes {
		for _, c := range certs {
			t.Run(r.method+" "+r.path+" "+c.name, func(t *testing.T) {
				if got := send(t, e.Client(c.cert), r.method, e.URL+r.path, r.body); got != c.want {
					t.Fatalf("status %d, want %d", got, c.want)
				}
			})
		}
		t.Run(r.method+" "+r.path+" own certificate", func(t *testing.T) {
			got := send(t, e.Client(own), r.method, e.URL+r.path, r.body)
			if got == http.StatusUnauthorized || got == http.StatusForbidden {
				t.Fatalf("status %d for the node's own certificate", got)
			}
		})
	}
}

func TestForeignCAIsRefused(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	foreign := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(foreign.ClientCert(node))
	if _, err := c.Get(e.URL + wire.WaitPath(node) + "?timeout=0s"); err == nil {
		t.Fatal("a certificate from another CA was accepted")
	}
}

func TestDeletedOrUnknownNodeIsRefused(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	if got := send(t, e.Client(e.ClientCert("node-ghost")), http.MethodGet, e.URL+wire.WaitPath("node-ghost"), ""); got != http.StatusUnauthorized {
		t.Fatalf("unknown node: status %d, want 401", got)
	}
}

func send(t *testing.T, c *http.Client, method, url, body string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
