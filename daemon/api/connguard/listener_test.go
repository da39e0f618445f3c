package connguard_test

import (
	"crypto/tls"
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
)

// refusals records OnRefuse's reasons.
type refusals struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *refusals) add(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n[reason]++
}

func (r *refusals) get(reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[reason]
}

// serve guards a loopback listener and echoes nothing: it keeps every
// accepted connection open until the test ends.
func serve(t *testing.T, o connguard.Options) (*connguard.Listener, *refusals, <-chan net.Conn) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &refusals{n: map[string]int{}}
	o.OnRefuse = r.add
	l := connguard.Listen(inner, o)
	accepted := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l, r, accepted
}

// dialFrom opens a TCP connection from the loopback address src.
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer says whether the server closed c within d.
func closedByServer(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := c.Read(make([]byte, 1))
	return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestOneSourcePastItsCapIsRefusedWhileAnotherIsServed(t *testing.T) {
	p := newPKI(t)
	l, r, accepted := serve(t, connguard.Options{MaxConns: 100, PerSource: 3, TLS: p.server, HandshakeTimeout: time.Minute})
	var flood []net.Conn
	for range 5 {
		flood = append(flood, dialFrom(t, "127.0.0.2", l.Addr().String()))
	}
	closed := 0
	for _, c := range flood {
		if closedByServer(c, 300*time.Millisecond) {
			closed++
		}
	}
	if closed != 2 || r.get(connguard.RefusedPerSource) != 2 {
		t.Fatalf("%d of 5 flood sockets closed, %d counted per_source; want 2 and 2", closed, r.get(connguard.RefusedPerSource))
	}
	tc := tls.Client(dialFrom(t, "127.0.0.3", l.Addr().String()), &tls.Config{ServerName: "127.0.0.1", RootCAs: p.roots, Certificates: []tls.Certificate{p.client}})
	if err := tc.Handshake(); err != nil {
		t.Fatalf("another source's handshake: %v", err)
	}
	select {
	case c := <-accepted:
		if _, ok := c.(*tls.Conn); !ok {
			t.Fatalf("Accept returned %T, want *tls.Conn", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("another source's connection was not accepted")
	}
}

func TestAHandshakeNotFinishedInTimeIsClosedAndCounted(t *testing.T) {
	p := newPKI(t)
	l, r, _ := serve(t, connguard.Options{TLS: p.server, HandshakeTimeout: 200 * time.Millisecond})
	c := dialFrom(t, "127.0.0.2", l.Addr().String())
	began := time.Now()
	if !closedByServer(c, 5*time.Second) {
		t.Fatal("an idle socket was still open after 5s")
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("closed after %v, want about 200ms", d)
	}
	waitFor(t, func() bool { return r.get(connguard.RefusedHandshake) == 1 }, "the handshake refusal counted")
}

func TestUnauthenticatedConnectionsHoldOnlyTheirShare(t *testing.T) {
	p := newPKI(t)
	l, r, accepted := serve(t, connguard.Options{MaxConns: 4, PerSource: 4, UnauthenticatedPercent: 50,
		TLS: p.server, HandshakeTimeout: time.Minute})
	for i := range 2 { // two agents with certificates take their places first
		tc := tls.Client(dialFrom(t, "127.0.0.1", l.Addr().String()), &tls.Config{ServerName: "127.0.0.1", RootCAs: p.roots, Certificates: []tls.Certificate{p.client}})
		if err := tc.Handshake(); err != nil {
			t.Fatalf("agent %d: %v", i, err)
		}
		<-accepted
	}
	a := dialFrom(t, "127.0.0.2", l.Addr().String())
	b := dialFrom(t, "127.0.0.3", l.Addr().String())
	c := dialFrom(t, "127.0.0.4", l.Addr().String())
	if !closedByServer(c, time.Second) || closedByServer(a, 100*time.Millisecond) || closedByServer(b, 100*time.Millisecond) {
		t.Fatal("want the third unauthenticated socket closed and the first two open")
	}
	if n := r.get(connguard.RefusedUnauthenticated); n != 1 {
		t.Errorf("unauthenticated_share refusals = %d, want 1", n)
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestAgentsBehindOneAddressAreNotHeldToTheUnauthenticatedCap(t *testing.T) {
	p := newPKI(t)
	l, r, accepted := serve(t, connguard.Options{MaxConns: 100, PerSource: 2, TLS: p.server, HandshakeTimeout: time.Minute})
	for i := range 5 { // five agents from one address, past its cap of 2
		tc := tls.Client(dialFrom(t, "127.0.0.1", l.Addr().String()), &tls.Config{ServerName: "127.0.0.1", RootCAs: p.roots, Certificates: []tls.Certificate{p.client}})
		if err := tc.Handshake(); err != nil {
			t.Fatalf("agent %d: %v", i, err)
		}
		<-accepted
	}
	idle := []net.Conn{dialFrom(t, "127.0.0.1", l.Addr().String()), dialFrom(t, "127.0.0.1", l.Addr().String())}
	third := dialFrom(t, "127.0.0.1", l.Addr().String())
	if !closedByServer(third, time.Second) || closedByServer(idle[0], 100*time.Millisecond) || closedByServer(idle[1], 100*time.Millisecond) {
		t.Fatal("want two idle sockets held beside five agents and the third idle one closed")
	}
	if n := r.get(connguard.RefusedPerSource); n != 1 {
		t.Errorf("per_source refusals = %d, want 1", n)
	}
}
