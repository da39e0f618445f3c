package main_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotifyForwardBadFlags: each bad flag exits 2 naming the value,
// before anything connects.
func TestNotifyForwardBadFlags(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	notPEM := filepath.Join(dir, "ca.pem")
	for _, p := range []string{secret, notPEM} {
		if err := os.WriteFile(p, []byte("whsec-1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ok := []string{"--site", "site-1", "--url", "http://127.0.0.1:5290/api/v1/webhooks/maas", "--secret-file", secret}
	with := func(extra ...string) []string {
		return append(append([]string{"maas-notify-forward"}, ok...), extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no site", []string{"maas-notify-forward", "--url", "http://x/", "--secret-file", secret}, `--site ""`},
		{"bad site", with("--site", "a/b"), `--site "a/b"`},
		{"bad url", with("--url", "ftp://x/"), `--url "ftp://x/"`},
		{"missing secret file", with("--secret-file", filepath.Join(dir, "nope")), "--secret-file: webhook secret: open " + filepath.Join(dir, "nope")},
		{"dsn with a password", with("--dsn", "postgres://l:hunter2@db/maasdb", "--password-file", secret), "--dsn: the DSN carries a password"},
		{"dsn without a password file", with("--dsn", "postgres://l@db/maasdb"), "--dsn needs --password-file"},
		{"unknown dsn parameter", with("--dsn", "postgres://l@db/maasdb?service=x", "--password-file", secret), `--dsn: parameter "service" is not supported`},
		{"dsn and regiond.conf", with("--dsn", "postgres://l@db/maasdb", "--password-file", secret, "--regiond-conf", "/x"), "exclude each other"},
		{"password file alone", with("--password-file", secret), "--password-file goes with --dsn"},
		{"missing password file", with("--dsn", "postgres://l@db/maasdb", "--password-file", filepath.Join(dir, "pw")), "--password-file: database password: open"},
		{"ca file not PEM", with("--ca-file", notPEM), fmt.Sprintf("--ca-file %q holds no PEM certificate", notPEM)},
		{"zero debounce", with("--debounce", "0s"), "--debounce 0s: must be above zero"},
		{"zero max pending", with("--max-pending", "0"), "--max-pending 0: give 1 to 1000000 machines"},
		{"zero max batch", with("--max-batch", "0"), "--max-batch 0: give 1 to 100 hints per POST"},
		{"max batch over the cap", with("--max-batch", "101"), "--max-batch 101: give 1 to 100 hints per POST"},
		{"metrics without a port", with("--metrics-listen", "127.0.0.1"), `--metrics-listen "127.0.0.1": give host:port`},
		{"bad log level", with("--log-level", "loud"), "--log-level"},
		{"unknown flag", with("--bogus"), "-bogus"},
		{"stray argument", with("extra"), `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runBinary(t, tt.args...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
			if strings.Contains(errOut, "hunter2") {
				t.Fatalf("stderr %q quotes the password", errOut)
			}
		})
	}
}

// TestNotifyForwardStopsOnSIGTERM: with the database unreachable it keeps
// retrying, and SIGTERM stops it cleanly (exit 0).
func TestNotifyForwardStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conf := filepath.Join(dir, "regiond.conf")
	secret := filepath.Join(dir, "secret")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(conf, []byte(fmt.Sprintf("database_host: 127.0.0.1\ndatabase_port: %d\ndatabase_pass: region-pw\n", port)), 0o600))
	must(os.WriteFile(secret, []byte("whsec-1"), 0o600))
	p := startProc(t, nil, "maas-notify-forward", "--site", "site-1", "--url", "http://127.0.0.1:1/api/v1/webhooks/maas",
		"--secret-file", secret, "--regiond-conf", filepath.Join(dir, "missing.conf"), "--regiond-conf", conf)
	down := p.waitLog("region database listener down")
	if down["reason"] != "unreachable" || strings.Contains(p.log(), "region-pw") {
		t.Fatalf("down line %v; log:\n%s", down, p.log())
	}
	if code, _ := p.terminate(); code != 0 {
		t.Fatalf("exit %d after SIGTERM; log:\n%s", code, p.log())
	}
	p.waitLog("maas-notify-forward stopped")
}

// A failure at run time (here the metrics port is taken) exits 1, not 2:
// the unit restarts after it, while it never restarts after a wrong
// command line.
func TestNotifyForwardRuntimeFailureExits1(t *testing.T) {
	dir := t.TempDir()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("whsec-1"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startProc(t, nil, "maas-notify-forward", "--site", "site-1", "--url", "http://127.0.0.1:1/api/v1/webhooks/maas",
		"--secret-file", secret, "--regiond-conf", filepath.Join(dir, "missing.conf"), "--metrics-listen", busy.Addr().String())
	p.waitLog("maas-notify-forward stopped with an error")
	<-p.done
	if code := p.cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d, want 1; log:\n%s", code, p.log())
	}
}
