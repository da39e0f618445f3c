package agentapi_test

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// dialTLS opens a raw TLS connection to the agent listener.
func dialTLS(t *testing.T, e *agentenv.Env) *tls.Conn {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(e.PKI.CABundlePEM())
	c, err := tls.Dial("tcp", strings.TrimPrefix(e.URL, "https://"), &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// serverClosed reports whether the server closed c within d.
func serverClosed(c *tls.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	ne, ok := err.(net.Error)
	return !ok || !ne.Timeout()
}

func TestAgentListenerClosesIdleConnection(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{Limits: api.Limits{IdleTimeout: 300 * time.Millisecond}})
	c := dialTLS(t, e)
	io.WriteString(c, "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !serverClosed(c, 5*time.Second) {
		t.Fatal("an idle agent connection was open after 5s with idle_timeout 300ms")
	}
}

func TestAgentListenerCutsDribbledEnrollment(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{Limits: api.Limits{ReadTimeout: 500 * time.Millisecond}})
	c := dialTLS(t, e)
	io.WriteString(c, "POST "+wire.RouteEnroll+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for range 4000 {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	if !serverClosed(c, 5*time.Second) {
		t.Fatal("an enrollment body sent a byte at a time held the connection past 5s with read_timeout 500ms")
	}
}

func TestAgentListenerCutsSilentHandshake(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{Limits: api.Limits{ReadTimeout: 300 * time.Millisecond}})
	addr := strings.TrimPrefix(e.URL, "https://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("a connection that never starts TLS was held past 5s")
	}
}
