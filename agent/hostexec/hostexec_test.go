package hostexec_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
)

func TestRunnerResolvesUnderTheRootOnly(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "usr/bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"root=$GPUAAS_HOST_ROOT lc=$LC_ALL args=$*\"\necho oops >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(bin, "tool"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := hostexec.Runner{Root: hostroot.Root(root)}
	out, err := r.Exec(context.Background(), "tool", "-a", "b c")
	var ee *task.ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || strings.TrimSpace(string(ee.Stderr)) != "oops" {
		t.Fatalf("err = %v, want exit 3 with stderr", err)
	}
	if got, want := strings.TrimSpace(string(out)), "root="+root+" lc=C args=-a b c"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	// sh exists on this machine but not under the fixture root.
	if _, err := r.Exec(context.Background(), "sh", "-c", "true"); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("a command outside the root ran: %v", err)
	}
}
