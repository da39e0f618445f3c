package main_test

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSystemdNotify runs the binary under a fake systemd: a unixgram
// NOTIFY_SOCKET and a 200 ms watchdog. READY=1 must come first, then
// WATCHDOG=1 keep-alives, and STOPPING=1 after SIGTERM.
func TestSystemdNotify(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p := startServe(t, filepath.Join(t.TempDir(), "state"), []string{"NOTIFY_SOCKET=" + sock, "WATCHDOG_USEC=200000"})

	if got := next(t, conn); got != "READY=1" {
		t.Fatalf("first notification = %q, want READY=1; log:\n%s", got, p.log())
	}
	for range 2 {
		if got := next(t, conn); got != "WATCHDOG=1" {
			t.Fatalf("notification after READY = %q, want WATCHDOG=1", got)
		}
	}
	stop(t, p)
	for {
		got := next(t, conn)
		if got == "STOPPING=1" {
			return
		}
		if got != "WATCHDOG=1" {
			t.Fatalf("notification during shutdown = %q, want STOPPING=1", got)
		}
	}
}

// next reads one datagram, failing after 3 s.
func next(t *testing.T, conn *net.UnixConn) string {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(3 * time.Second)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatalf("no notification: %v", err)
	}
	return strings.TrimSpace(string(buf[:n]))
}
