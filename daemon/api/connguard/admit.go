package connguard

import (
	"net"
	"sync"
)

// conn is an admitted connection; Close gives its place back once.
type conn struct {
	net.Conn
	l      *Listener
	source string
	authed bool // verified client certificate; under l.mu
	gone   bool // released; under l.mu
	once   sync.Once
}

// Close closes the connection and releases its place.
func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}

// source is the connection's remote IP address, the per-source key.
func source(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// admit counts c in, or closes it and reports why when a bound is full.
func (l *Listener) admit(c net.Conn) *conn {
	src := source(c)
	l.mu.Lock()
	reason := ""
	switch {
	case l.bySource[src] >= l.o.PerSource:
		reason = RefusedPerSource
	case l.unauth >= l.o.unauthenticatedCap():
		reason = RefusedUnauthenticated
	case l.total >= l.o.MaxConns:
		reason = RefusedFull
	default:
		l.bySource[src]++
		l.unauth++
		l.total++
	}
	l.mu.Unlock()
	if reason != "" {
		c.Close()
		l.o.OnRefuse(reason)
		return nil
	}
	return &conn{Conn: c, l: l, source: src}
}

// authenticated moves c out of the unauthenticated share and out of its
// source's count: the per-source cap bounds connections that have not
// shown a certificate, so many agents behind one address (NAT, a load
// test) are bounded only by MaxConns.
func (l *Listener) authenticated(c *conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !c.authed && !c.gone {
		c.authed = true
		l.unauth--
		l.leave(c.source)
	}
}

func (l *Listener) release(c *conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.gone = true
	l.total--
	if !c.authed {
		l.unauth--
		l.leave(c.source)
	}
}

// leave takes one unauthenticated connection off src's count; under l.mu.
func (l *Listener) leave(src string) {
	if l.bySource[src]--; l.bySource[src] <= 0 {
		delete(l.bySource, src)
	}
}
