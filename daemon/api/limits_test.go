package api

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serveLimited runs a Server with lim whose handler reads the whole body.
func serveLimited(t *testing.T, lim Limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := &Server{Listener: ln, Handler: h, ShutdownTimeout: time.Second, Logger: slog.New(slog.DiscardHandler), Limits: lim}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes c within d (a read
// returns EOF or a reset rather than timing out on our side).
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

func TestListenerClosesIdleKeepAlive(t *testing.T) {
	addr := serveLimited(t, Limits{IdleTimeout: 300 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("first request: %v %v", resp, err)
	}
	start := time.Now()
	if !closedWithin(c, 5*time.Second) {
		t.Fatal("an idle keep-alive connection was still open after 5s with idle_timeout 300ms")
	}
	if el := time.Since(start); el < 250*time.Millisecond {
		t.Errorf("closed after %v, before the idle timeout", el)
	}
}

func TestListenerCutsDribbledBody(t *testing.T) {
	addr := serveLimited(t, Limits{ReadTimeout: 500 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one byte every 50ms: 50s for the whole body
		for range 1000 {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte("a")); err != nil {
				return
			}
		}
	}()
	if !closedWithin(c, 5*time.Second) {
		t.Fatal("a body sent a byte at a time held the connection past 5s with read_timeout 500ms")
	}
}

func TestListenerCapsConnections(t *testing.T) {
	addr := serveLimited(t, Limits{MaxConns: 1, IdleTimeout: time.Minute})
	first, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(first, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(first), nil); err != nil {
		t.Fatal(err)
	}
	second, err := net.Dial("tcp", addr) // queued by the kernel, not served
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	io.WriteString(second, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	second.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if _, err := second.Read(make([]byte, 1)); err == nil {
		t.Fatal("a second connection was served while the cap of 1 was held")
	}
	first.Close()
	second.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(second), nil)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("second connection after the first closed: %v %v", resp, err)
	}
}

func TestDefaultLimitsFillZeroFields(t *testing.T) {
	got := Limits{IdleTimeout: time.Second}.WithDefaults()
	d := DefaultLimits()
	if got.IdleTimeout != time.Second || got.ReadTimeout != d.ReadTimeout || got.MaxConns != d.MaxConns ||
		!strings.Contains(slog.AnyValue(got).String(), "1s") {
		t.Errorf("WithDefaults() = %+v", got)
	}
}
