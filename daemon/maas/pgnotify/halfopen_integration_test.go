//go:build integration

package pgnotify_test

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// A connection whose peer stops answering without closing (a half-open
// TCP connection, a frozen host) is found within Health by the idle ping,
// and the listener reconnects once the path works again.
func TestHalfOpenConnectionIsDetected(t *testing.T) {
	s := pgtest.Start(t)
	leastPrivilege(t, s)
	p := newFreezer(t, s.Port())
	const health = time.Second
	src := pgnotify.Source{DSN: fmt.Sprintf("postgres://listener@%s/maasdb?sslmode=disable&connect_timeout=2", p.addr()),
		Password: password(listenerPassword)}
	r := start(t, src, health)
	r.waitFor(t, "listening", 20*time.Second, func(ev []string) bool { return count(ev, "listening") == 1 })
	p.freeze(true)
	frozen := time.Now()
	r.waitFor(t, "down", 10*time.Second, func(ev []string) bool { return count(ev, "down:") > 0 })
	if took := time.Since(frozen); took > health+500*time.Millisecond {
		t.Errorf("the dead connection was found after %v, want within Health (%v)", took, health)
	}
	ev, errs := r.snapshot()
	if ev[1] != "down:lost" || !strings.Contains(errs[0].Error(), "no answer to a ping within 500ms") {
		t.Fatalf("events %v, first error %v: want lost, no answer to a ping", ev, errs[0])
	}
	p.freeze(false)
	r.waitFor(t, "listening again", 20*time.Second, func(ev []string) bool { return count(ev, "listening") == 2 })
	s.Exec(t, "maasdb", "SELECT pg_notify('machine_update', 'thawed')")
	r.waitFor(t, "thawed", 10*time.Second, func(ev []string) bool { return ev[len(ev)-1] == "machine_update:thawed" })
}

// freezer is a TCP proxy to a port on 127.0.0.1 that, frozen, holds
// every byte in both directions without closing anything.
type freezer struct {
	l      net.Listener
	mu     sync.Mutex
	cond   *sync.Cond
	frozen bool
}

func newFreezer(t *testing.T, port int) *freezer {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{l: l}
	f.cond = sync.NewCond(&f.mu)
	t.Cleanup(func() { l.Close(); f.freeze(false) })
	go f.serve(fmt.Sprintf("127.0.0.1:%d", port))
	return f
}

func (f *freezer) addr() string { return f.l.Addr().String() }

func (f *freezer) freeze(on bool) {
	f.mu.Lock()
	f.frozen = on
	f.mu.Unlock()
	f.cond.Broadcast()
}

func (f *freezer) serve(upstream string) {
	for {
		c, err := f.l.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", upstream)
		if err != nil {
			c.Close()
			continue
		}
		go f.pipe(c, u)
		go f.pipe(u, c)
	}
}

// pipe copies src to dst, waiting while frozen before each write.
func (f *freezer) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		f.mu.Lock()
		for f.frozen {
			f.cond.Wait()
		}
		f.mu.Unlock()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				src.Close()
			}
			return
		}
	}
}
