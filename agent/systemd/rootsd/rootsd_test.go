package rootsd_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/systemd/rootsd"
)

// TestManagerStaysUnderItsRoot: enable and disable change links under the
// root only, every call is journaled there, and a unit name that would
// leave the wants directory is refused.
func TestManagerStaysUnderItsRoot(t *testing.T) {
	root := t.TempDir()
	m := rootsd.Manager{Root: hostroot.Root(root)}
	ctx := context.Background()
	link := filepath.Join(root, rootsd.Wants, "a.service")
	steps := []struct {
		name     string
		do       func() error
		linked   bool
		wantFail bool
	}{
		{"enable", func() error { return m.Enable(ctx, "a.service") }, true, false},
		{"enable again", func() error { return m.Enable(ctx, "a.service") }, true, false},
		{"restart", func() error { return m.Restart(ctx, "a.service") }, true, false},
		{"disable", func() error { return m.Disable(ctx, "a.service") }, false, false},
		{"disable again", func() error { return m.Disable(ctx, "a.service") }, false, false},
		{"stop", func() error { return m.Stop(ctx, "a.service") }, false, false},
		{"escape", func() error { return m.Enable(ctx, "../../x.service") }, false, true},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if err := s.do(); (err != nil) != s.wantFail {
				t.Fatalf("err = %v, want failure %v", err, s.wantFail)
			}
			if _, err := os.Lstat(link); (err == nil) != s.linked {
				t.Errorf("link present = %v, want %v", err == nil, s.linked)
			}
		})
	}
	b, err := os.ReadFile(filepath.Join(root, rootsd.Journal))
	if err != nil {
		t.Fatal(err)
	}
	want := "enable a.service\nenable a.service\nrestart a.service\ndisable a.service\ndisable a.service\nstop a.service\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(root, "..", "x.service")); err == nil {
		t.Error("a unit name escaped the root")
	}
}
