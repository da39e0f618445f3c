package main_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotifyForwardHealth runs the forwarder under a fake systemd (a
// unixgram NOTIFY_SOCKET, a 200 ms watchdog) with --metrics-listen and
// the database unreachable: READY=1 comes first, then WATCHDOG=1
// keep-alives; /metrics shows the listener down and every series at
// zero; SIGTERM sends STOPPING=1 and exits 0.
func TestNotifyForwardHealth(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	secret, conf := filepath.Join(dir, "secret"), filepath.Join(dir, "regiond.conf")
	for p, b := range map[string]string{secret: "whsec-health", conf: "database_host: 127.0.0.1\ndatabase_port: 1\ndatabase_pass: pw\n"} {
		if err := os.WriteFile(p, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := startProc(t, []string{"NOTIFY_SOCKET=" + sock, "WATCHDOG_USEC=200000"}, "maas-notify-forward", "--site", "site-1",
		"--url", "http://127.0.0.1:1/api/v1/webhooks/maas", "--secret-file", secret, "--regiond-conf", conf,
		"--metrics-listen", "127.0.0.1:0", "--max-pending", "5")
	addr, _ := p.waitLog("metrics listener bound")["addr"].(string)
	if got := next(t, conn); got != "READY=1" {
		t.Fatalf("first notification = %q, want READY=1; log:\n%s", got, p.log())
	}
	for range 2 {
		if got := next(t, conn); got != "WATCHDOG=1" {
			t.Fatalf("notification after READY = %q, want WATCHDOG=1", got)
		}
	}
	p.waitLog("region database listener down")
	code, body, err := get(addr, "/metrics")
	if err != nil || code != 200 {
		t.Fatalf("GET /metrics: %d %v", code, err)
	}
	for _, want := range []string{"maas_sidecar_notify_forward_listener_up 0", "maas_sidecar_notify_forward_delivered_total 0",
		"maas_sidecar_notify_forward_retries_total 0", "maas_sidecar_notify_forward_last_delivery_timestamp_seconds 0",
		`maas_sidecar_notify_forward_dropped_total{reason="queue_full"} 0`, `maas_sidecar_notify_forward_dropped_total{reason="pending_full"} 0`,
		`maas_sidecar_notify_forward_dropped_total{reason="not_system_id"} 0`, `maas_sidecar_notify_forward_dropped_total{reason="refused"} 0`,
		"maas_sidecar_build_info{"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, "whsec-health") {
		t.Error("/metrics holds the secret")
	}
	if code, _ := p.terminate(); code != 0 {
		t.Fatalf("exit %d after SIGTERM; log:\n%s", code, p.log())
	}
	for {
		got := next(t, conn)
		if got == "STOPPING=1" {
			break
		}
		if got != "WATCHDOG=1" {
			t.Fatalf("notification during shutdown = %q, want STOPPING=1", got)
		}
	}
	if _, _, err := get(addr, "/metrics"); err == nil {
		t.Error("the metrics listener still answers after exit")
	}
}
