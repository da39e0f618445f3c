//go:build e2e

package system

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// outageProxy stands between the daemon and the simulator's API: while
// down, its port refuses connections and every open one is cut, as a
// region controller whose API is gone; the simulator keeps its state.
type outageProxy struct {
	t      testing.TB
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
}

func startOutageProxy(t testing.TB, target string) *outageProxy {
	t.Helper()
	p := &outageProxy{t: t, addr: freeport.Addr(t), target: target, conns: map[net.Conn]bool{}}
	p.up()
	t.Cleanup(p.down)
	return p
}

// up listens again on the same address.
func (p *outageProxy) up() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("outage proxy: listen again on %s: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.accept(ln)
}

// down closes the listener (connections are refused) and cuts every
// connection in flight.
func (p *outageProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
}

func (p *outageProxy) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(c)
	}
}

func (p *outageProxy) pipe(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, s) {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(s, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, s); done <- struct{}{} }()
	<-done
	_ = c.Close()
	_ = s.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, s)
	p.mu.Unlock()
}

// track registers a connection pair, or closes it when the proxy went
// down meanwhile.
func (p *outageProxy) track(c, s net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		_ = c.Close()
		_ = s.Close()
		return false
	}
	p.conns[c], p.conns[s] = true, true
	return true
}
