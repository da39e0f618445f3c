//go:build e2e

package system

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// result is one CLI invocation.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return "exit " + itoa(r.code) + "\nstdout:\n" + r.stdout + "\nstderr:\n" + r.stderr
}

// cli runs the real maas-sidecar binary as the operator would, with the
// admin address and token in the environment; stdin feeds secrets.
func (d *daemon) cli(stdin string, args ...string) result {
	d.t.Helper()
	cmd := exec.Command(bins.daemon, args...)
	cmd.Env = append(os.Environ(), "MAAS_SIDECAR_ADDR="+d.adminAddr, "MAAS_SIDECAR_TOKEN="+d.token())
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		d.t.Fatalf("cli %v: %v", args, err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(150 * time.Second):
		_ = cmd.Process.Kill()
		d.t.Fatalf("maas-sidecar %s did not finish within 150s; output so far:\n%s", strings.Join(args, " "), out.String())
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		d.t.Fatalf("cli %v: %v", args, err)
	}
	return r
}

// ok runs a command that must succeed and returns its stdout.
func (d *daemon) ok(stdin string, args ...string) string {
	d.t.Helper()
	r := d.cli(stdin, args...)
	if r.code != 0 {
		d.t.Fatalf("maas-sidecar %s: %s", strings.Join(args, " "), r)
	}
	return r.stdout
}

// json runs a command with -o json that must succeed and decodes its output.
func (d *daemon) json(out any, args ...string) {
	d.t.Helper()
	s := d.ok("", append(args, "-o", "json")...)
	if err := json.Unmarshal([]byte(s), out); err != nil {
		d.t.Fatalf("maas-sidecar %s -o json: %v\n%s", strings.Join(args, " "), err, s)
	}
}

// file writes content to a temp file (mode 0600) and returns its path.
func file(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
