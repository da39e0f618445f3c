package reboot_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/reboot"
)

// The result names this boot and nothing reboots before the report; the
// reboot is `systemctl reboot` after it.
func TestRebootAfterTheReport(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, reboot.BootIDPath)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("3f1c2a9e-0b7d-4e55-9a51-2d2b6f0c1e77\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := fakeexec.New(map[string]fakeexec.Func{"systemctl": fakeexec.Output("")})
	env := task.Env{Root: hostroot.Root(root), Exec: ex}
	res, err := reboot.Handler{}.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Details["boot_id"] != "3f1c2a9e-0b7d-4e55-9a51-2d2b6f0c1e77" || len(ex.Calls()) != 0 || res.After == nil {
		t.Fatalf("before the report: %+v, calls %v", res.Details, ex.Calls())
	}
	if err := res.After(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"systemctl reboot"}, ex.Calls()); diff != "" {
		t.Error(diff)
	}
}

// Without a boot id the daemon could not tell the host came back: the
// task fails and nothing reboots.
func TestNoBootIDNoReboot(t *testing.T) {
	ex := fakeexec.New(nil)
	_, err := reboot.Handler{}.Run(context.Background(), task.Env{Root: hostroot.Root(t.TempDir()), Exec: ex}, nil)
	if err == nil || len(ex.Calls()) != 0 {
		t.Fatalf("err %v, calls %v", err, ex.Calls())
	}
}
