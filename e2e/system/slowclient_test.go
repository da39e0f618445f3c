//go:build e2e

package system

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// The listeners' limits in this test, short so the test is quick; the
// header timeout is the read timeout when that is under 10s.
const (
	slowTimeout = time.Second
	slowSlack   = 2 * time.Second // scheduling on a loaded machine
	slowCrowd   = 10              // attackers of each kind held at once
)

// slowDaemon starts the real daemon binary with one-second read, write
// and idle timeouts on both listeners and no Vault (none is needed to
// serve health, metrics and the agent routes' refusals).
func slowDaemon(t *testing.T) *daemon {
	requireBinaries(t)
	dir := t.TempDir()
	d := &daemon{t: t, config: filepath.Join(dir, "config.yaml"), stateDir: filepath.Join(dir, "state"),
		adminAddr: freeport.Addr(t), agentAddr: freeport.Addr(t)}
	limits := fmt.Sprintf("{read_timeout: %s, write_timeout: %s, idle_timeout: %s}", slowTimeout, slowTimeout, slowTimeout)
	cfg := fmt.Sprintf("admin_listen: %s\nstate_dir: %s\nadmin_http: %s\nconnectivity:\n  port: 0\n"+
		"agent:\n  listen: %s\n  url: https://%s\n  cert_hosts: [127.0.0.1]\n  http: %s\n",
		d.adminAddr, d.stateDir, limits, d.agentAddr, d.agentAddr, limits)
	if err := os.WriteFile(d.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d.start()
	return d
}

// listener is one of the daemon's two listeners as an attacker sees it.
type listener struct {
	name, addr string
	// dial connects (TLS on the agent listener, one handshake at a time so
	// that the handshakes themselves stay within the read timeout on a
	// loaded machine).
	dial func(t *testing.T) net.Conn
	// ok is a request any client may make, answered at once.
	ok string
}

func listeners(d *daemon) []listener {
	admin := listener{name: "admin", addr: d.adminAddr, ok: "/healthz",
		dial: func(t *testing.T) net.Conn { return dialRaw(t, d.adminAddr) }}
	agent := listener{name: "agent", addr: d.agentAddr, ok: "/nowhere",
		dial: func(t *testing.T) net.Conn {
			handshakes.Lock()
			defer handshakes.Unlock()
			c := tls.Client(dialRaw(t, d.agentAddr), &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS13})
			if err := c.Handshake(); err != nil {
				t.Fatalf("agent listener handshake: %v", err)
			}
			return c
		}}
	return []listener{admin, agent}
}

var handshakes sync.Mutex

// dialRaw opens a TCP connection that the test closes at its end.
func dialRaw(t *testing.T, addr string) net.Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// cutWithin waits for the daemon to close c, reading (and dropping)
// what it sends; it fails when c is still open after within.
func cutWithin(t *testing.T, what string, c net.Conn, within time.Duration) time.Duration {
	start := time.Now()
	c.SetReadDeadline(start.Add(within))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Errorf("%s: still open after %v", what, within)
	}
	return time.Since(start)
}

func TestSlowAndHalfOpenClientsAreCutWithinTheirTimeoutsWhileBothListenersKeepServing(t *testing.T) {
	d := slowDaemon(t)
	// A fresh connection per normal request: a kept-alive one would race
	// the one-second idle timeout.
	plain := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	agentClient := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS13}}}
	for _, l := range listeners(d) {
		t.Run(l.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for i := range slowCrowd {
				wg.Add(3)
				go func() { defer wg.Done(); slowloris(t, l, i) }()
				go func() { defer wg.Done(); silent(t, l, i) }()
				go func() { defer wg.Done(); halfClose(t, l, i) }()
			}
			served := make(chan struct{})
			go func() { wg.Wait(); close(served) }()
			base, client := "http://"+d.adminAddr, plain
			if l.name == "agent" {
				base, client = "https://"+d.agentAddr, agentClient
			}
			for n := 0; ; n++ {
				resp, err := client.Get(base + l.ok)
				if err != nil {
					t.Fatalf("a normal request during the attack: %v", err)
				}
				resp.Body.Close()
				if resp.StatusCode >= 500 {
					t.Fatalf("a normal request during the attack: %s", resp.Status)
				}
				select {
				case <-served:
					t.Logf("%d normal requests answered during the attack", n+1)
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		})
	}
}

// slowloris sends its request headers a byte at a time, every 200ms: the
// header (read) timeout cuts it.
func slowloris(t *testing.T, l listener, i int) {
	c := l.dial(t)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for _, b := range []byte("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("s", 200)) {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
		}
	}()
	if el := cutWithin(t, fmt.Sprintf("%s slowloris %d", l.name, i), c, slowTimeout+slowSlack); el < slowTimeout/2 {
		t.Errorf("%s slowloris %d: cut after %v, before its timeout", l.name, i, el)
	}
}

// silent opens a connection (TCP only on the admin listener; TLS never
// started on the agent listener) and sends nothing.
func silent(t *testing.T, l listener, i int) {
	c := dialRaw(t, l.addr)
	cutWithin(t, fmt.Sprintf("%s silent %d", l.name, i), c, slowTimeout+slowSlack)
}

// halfClose sends a whole request and shuts its sending side: it gets its
// answer, then the daemon closes the connection.
func halfClose(t *testing.T, l listener, i int) {
	c := l.dial(t)
	io.WriteString(c, "GET "+l.ok+" HTTP/1.1\r\nHost: x\r\n\r\n")
	c.(interface{ CloseWrite() error }).CloseWrite()
	c.SetReadDeadline(time.Now().Add(slowTimeout + slowSlack))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Errorf("%s half-close %d: still open after %v", l.name, i, slowTimeout+slowSlack)
	}
	if !strings.HasPrefix(string(b), "HTTP/1.1 ") {
		t.Errorf("%s half-close %d: no answer before the close: %q (%v)", l.name, i, b, err)
	}
}
