//go:build e2e && dqlite

package system

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var netnsSeq atomic.Int64

// netns is a network namespace of its own (ip netns) with loopback only.
// A daemon run in it reaches only what the test bridges in, and is
// reached only through what the test bridges out, each bridge on the
// same host:port in both namespaces, so every member sees one address
// for each. Cutting a bridge freezes it (bridge.cut).
type netns struct {
	t    *testing.T
	name string
}

// newNetns adds the namespace (root and iproute2 needed: a missing one
// fails the test) and deletes it at the end of the test.
func newNetns(t *testing.T) *netns {
	t.Helper()
	n := &netns{t: t, name: fmt.Sprintf("msc-%d-%d", os.Getpid(), netnsSeq.Add(1))}
	ip := func(args ...string) {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v (a cluster cut test needs root and iproute2): %v\n%s", args, err, out)
		}
	}
	ip("netns", "add", n.name)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "delete", n.name).Run() })
	ip("-n", n.name, "link", "set", "lo", "up")
	return n
}

// inside runs f on a thread that entered the namespace: the sockets f
// creates live there. The thread ends with f (it is never unlocked), so
// no other goroutine runs in the namespace.
func (n *netns) inside(f func()) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		fd, err := syscall.Open("/run/netns/"+n.name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			errc <- err
			return
		}
		defer syscall.Close(fd)
		if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns %s: %w", n.name, err)
			return
		}
		f()
		errc <- nil
	}()
	return <-errc
}

// bridgeIn makes addr of the host reachable at addr inside the namespace.
func (n *netns) bridgeIn(addr string) *bridge {
	var ln net.Listener
	err := n.inside(func() {
		var lerr error
		ln, lerr = net.Listen("tcp", addr)
		if lerr != nil {
			panic(lerr)
		}
	})
	if err != nil {
		n.t.Fatal(err)
	}
	return startBridge(n.t, ln, func() (net.Conn, error) { return net.DialTimeout("tcp", addr, time.Second) })
}

// bridgeOut makes addr inside the namespace reachable at addr of the host.
func (n *netns) bridgeOut(addr string) *bridge {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		n.t.Fatal(err)
	}
	return startBridge(n.t, ln, func() (c net.Conn, err error) {
		if ierr := n.inside(func() { c, err = net.DialTimeout("tcp", addr, time.Second) }); ierr != nil {
			return nil, ierr
		}
		return c, err
	})
}

// bridge forwards the connections accepted on ln to what dial reaches.
type bridge struct {
	ln     net.Listener
	dial   func() (net.Conn, error)
	mu     sync.Mutex
	held   chan struct{} // non-nil while cut; closed when healed
	closed chan struct{}
}

func startBridge(t *testing.T, ln net.Listener, dial func() (net.Conn, error)) *bridge {
	b := &bridge{ln: ln, dial: dial, closed: make(chan struct{})}
	t.Cleanup(func() { close(b.closed); ln.Close() })
	go b.serve()
	return b
}

// cut freezes the bridge (on) or lets it forward again: a cut bridge
// still accepts connections but forwards nothing, neither bytes nor a
// close, in either direction, on new and open connections alike, as a
// link that silently drops every packet does.
func (b *bridge) cut(on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case on && b.held == nil:
		b.held = make(chan struct{})
	case !on && b.held != nil:
		close(b.held)
		b.held = nil
	}
}

// hold waits while the bridge is cut.
func (b *bridge) hold() {
	b.mu.Lock()
	h := b.held
	b.mu.Unlock()
	if h != nil {
		select {
		case <-h:
		case <-b.closed:
		}
	}
}

func (b *bridge) serve() {
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		go b.forward(c)
	}
}

func (b *bridge) forward(c net.Conn) {
	b.hold()
	d, err := b.dial()
	if err != nil {
		c.Close()
		return
	}
	go b.pipe(d, c)
	b.pipe(c, d)
}

func (b *bridge) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		b.hold()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
}
