package agentapi_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// The flood: more idle sockets from one address than the whole listener
// takes, none of them starting a TLS handshake, against the listener's
// defaults (1024 connections, 128 unauthenticated per source, a 25%
// unauthenticated share).
const (
	floodConns  = 1100
	floodSource = "127.0.0.2"
	agentSource = "127.0.0.1"
	floodAgents = 100
)

func TestOneSourceFloodingIdleSocketsLeavesAHundredAgentsServed(t *testing.T) {
	m := agentapi.NewMetrics(prometheus.NewRegistry())
	// the defaults but the handshake bound, which outlasts the test so the
	// flood's sockets are still held at its end
	e := agentenv.New(t, agentenv.Options{Metrics: m, Admission: connguard.Options{HandshakeTimeout: time.Minute},
		Limits: api.Limits{ReadTimeout: time.Minute}})
	perSource := connguard.Options{}.WithDefaults().PerSource
	addr := e.URL[len("https://"):]
	flood := make([]net.Conn, floodConns)
	for i := range flood {
		flood[i] = dialFromAddr(t, floodSource, addr)
	}
	waitFlood(t, func() bool {
		return testutil.ToFloat64(m.ConnsRefused(connguard.RefusedPerSource)) == float64(floodConns-perSource)
	},
		"the flood past the per-source cap refused")

	nodes := make([]string, floodAgents)
	clients := make([]*http.Client, floodAgents)
	for i := range nodes {
		nodes[i] = e.Node(lifecycle.NodeActive)
		clients[i] = e.Client(e.ClientCert(nodes[i]))
		// every agent from one address, as behind NAT: past the
		// per-source cap, which bounds only unauthenticated connections
		clients[i].Transport.(*http.Transport).DialContext = (&net.Dialer{
			LocalAddr: &net.TCPAddr{IP: net.ParseIP(agentSource)}}).DialContext
	}
	ctx, cancel := context.WithTimeout(e.Ctx, 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, floodAgents)
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- emptyPoll(ctx, clients[i], e.URL, nodes[i])
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	open := 0
	for _, c := range flood {
		if !closedByPeer(c, time.Millisecond) {
			open++
		}
	}
	if open != perSource {
		t.Errorf("%d flood sockets still held, want the per-source cap of %d", open, perSource)
	}
}

// emptyPoll is one agent's empty long poll: it must be answered 204.
func emptyPoll(ctx context.Context, c *http.Client, base, node string) error {
	u := base + wire.WaitPath(node) + "?" + wire.WaitTimeoutParam + "=0s"
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("agent %s was not served: %w", node, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("agent %s: %s, want 204", node, resp.Status)
	}
	return nil
}

func dialFromAddr(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByPeer says whether the server closed c within d.
func closedByPeer(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := c.Read(make([]byte, 1))
	return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

func waitFlood(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
