package connguard

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Listener is a guarded TLS listener: Accept returns *tls.Conn whose
// handshake has finished.
type Listener struct {
	inner  net.Listener
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	ready  chan net.Conn
	ended  chan struct{} // closed when the accept loop ends; err says why
	err    error
	once   sync.Once

	mu       sync.Mutex
	total    int
	unauth   int
	bySource map[string]int
}

// Listen guards inner and starts accepting from it.
func Listen(inner net.Listener, o Options) *Listener {
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{inner: inner, o: o.WithDefaults(), ctx: ctx, cancel: cancel,
		ready: make(chan net.Conn), ended: make(chan struct{}), bySource: map[string]int{}}
	go l.acceptLoop()
	return l
}

// Accept returns the next connection whose handshake finished.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.ended:
		return nil, l.err
	}
}

// Close stops accepting and closes connections still handshaking.
func (l *Listener) Close() error {
	var err error
	l.once.Do(func() {
		l.cancel()
		err = l.inner.Close()
	})
	return err
}

// Addr is the bound address.
func (l *Listener) Addr() net.Addr { return l.inner.Addr() }

func (l *Listener) acceptLoop() {
	defer close(l.ended)
	backoff := 5 * time.Millisecond
	for {
		c, err := l.inner.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || l.ctx.Err() != nil {
				l.err = fmt.Errorf("connguard: %w", net.ErrClosed)
				return
			}
			l.o.Clock.Sleep(backoff) // out of descriptors and the like: wait, as net/http does
			backoff = min(2*backoff, time.Second)
			continue
		}
		backoff = 5 * time.Millisecond
		if tc := l.admit(c); tc != nil {
			go l.handshake(tc)
		}
	}
}

// handshake runs the TLS handshake within HandshakeTimeout, marks a
// connection with a verified client certificate, and hands it to Accept.
func (l *Listener) handshake(c *conn) {
	tc := tls.Server(c, l.o.TLS)
	ctx, cancel := context.WithTimeout(l.ctx, l.o.HandshakeTimeout)
	err := tc.HandshakeContext(ctx)
	cancel()
	if err != nil {
		tc.Close()
		if l.ctx.Err() == nil {
			l.o.OnRefuse(RefusedHandshake)
		}
		return
	}
	if len(tc.ConnectionState().VerifiedChains) > 0 {
		l.authenticated(c)
	}
	select {
	case l.ready <- tc:
	case <-l.ctx.Done():
		tc.Close()
	}
}
