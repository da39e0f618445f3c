//go:build e2e && dqlite

package system

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// agentProxy is the address the booted agents are given for the agent
// API, as a load balancer in front of the region controllers would be:
// it forwards each connection (TLS passes through) to the next member
// that is up. The test marks a member down when it kills or freezes it,
// as a health check would, which also cuts that member's connections.
type agentProxy struct {
	ln       net.Listener
	mu       sync.Mutex
	backends []string
	down     map[int]bool
	conns    map[int][]net.Conn
	next     int
}

func startAgentProxy(t *testing.T) *agentProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &agentProxy{ln: ln, down: map[int]bool{}, conns: map[int][]net.Conn{}}
	t.Cleanup(func() { ln.Close(); p.closeAll() })
	go p.serve()
	return p
}

func (p *agentProxy) addr() string { return p.ln.Addr().String() }

// add registers a member's agent listener; it returns its index.
func (p *agentProxy) add(addr string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.backends = append(p.backends, addr)
	return len(p.backends) - 1
}

// setDown marks member i down (closing its connections) or up.
func (p *agentProxy) setDown(i int, down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down[i] = down
	if down {
		for _, c := range p.conns[i] {
			c.Close()
		}
		p.conns[i] = nil
	}
}

func (p *agentProxy) closeAll() {
	for i := range p.backends {
		p.setDown(i, true)
	}
}

func (p *agentProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.forward(c)
	}
}

// forward pipes c to the next member up; c is closed when none answers.
func (p *agentProxy) forward(c net.Conn) {
	for range len(p.backends) {
		p.mu.Lock()
		i := p.next % max(len(p.backends), 1)
		p.next++
		if p.down[i] || len(p.backends) == 0 {
			p.mu.Unlock()
			continue
		}
		addr := p.backends[i]
		p.mu.Unlock()
		b, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if p.down[i] {
			p.mu.Unlock()
			b.Close()
			continue
		}
		p.conns[i] = append(p.conns[i], c, b)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(b, c); b.Close() }()
		_, _ = io.Copy(c, b)
		c.Close()
		return
	}
	c.Close()
}
