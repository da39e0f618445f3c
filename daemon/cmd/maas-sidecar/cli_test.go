package main_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = cleanEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("run %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	// The binary is built with this test binary's tags and says which
	// store backends it has.
	want := testVersion + "\n" + storesLine + "\n"
	code, out, _ := runBinary(t, "version")
	if code != 0 || out != want {
		t.Errorf("version = %d %q, want 0 %q", code, out, want)
	}
}

// TestBadInvocations: a wrong command line exits 2, a bad configuration 1,
// and stderr names the offending command, flag or key.
func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	cfg := func(name, yaml string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := cfg("empty.yaml", "")
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	state := filepath.Join(dir, "state")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no command", nil, 2, "usage: maas-sidecar"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"unknown flag", []string{"serve", "--config", empty, "--colour"}, 2, "-colour"},
		{"dev-idle without dev", []string{"serve", "--config", empty, "--dev-idle"}, 2, "--dev-idle needs --dev"},
		{"bad listen flag", []string{"serve", "--config", empty, "--admin-listen", "x"}, 1, `admin_listen: "x" is not host:port`},
		{"unknown config key", []string{"serve", "--config", cfg("k.yaml", "colour: blue\n")}, 1, "colour: unknown key"},
		{"bad config value", []string{"serve", "--config", cfg("v.yaml", "log_level: loud\n")}, 1, `log_level: "loud"`},
		{"missing explicit config", []string{"serve", "--config", filepath.Join(dir, "none.yaml")}, 1, "none.yaml"},
		{"port in use", []string{"serve", "--config", empty, "--state-dir", state, "--admin-listen", held.Addr().String()}, 1, "admin_listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runBinary(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("maas-sidecar %v = exit %d, stderr %q; want exit %d, stderr containing %q",
					tt.args, code, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestSecondDaemonOnOneStateDir: the store's file lock makes a second
// daemon fail fast instead of sharing the state.
func TestSecondDaemonOnOneStateDir(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	first := startServe(t, state, nil)
	first.waitReady()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("store_lock_timeout: 200ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runBinary(t, "serve", "--config", cfg, "--state-dir", state, "--admin-listen", "127.0.0.1:0", "--agent-listen", "127.0.0.1:0")
	if code != 1 || !strings.Contains(stderr, "maas-sidecar stopped with an error") {
		t.Errorf("second daemon = exit %d, stderr %q; want exit 1 with the error logged", code, stderr)
	}
	if code, _, err := get(first.addr, "/readyz"); err != nil || code != 200 {
		t.Errorf("first daemon /readyz = %d %v after the second failed, want 200", code, err)
	}
	stop(t, first)
}
