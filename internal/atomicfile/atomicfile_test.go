package atomicfile_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

func TestWriteSetsContentAndExactMode(t *testing.T) {
	old := syscall.Umask(0o077) // a strict umask must not change the mode asked for
	t.Cleanup(func() { syscall.Umask(old) })
	cases := []struct {
		name     string
		existing os.FileMode // 0: no file before
		perm     os.FileMode
	}{
		{"new key", 0, 0o600},
		{"new certificate", 0, 0o644},
		{"replaces a looser file", 0o644, 0o600},
		{"replaces a stricter file", 0o600, 0o640},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if c.existing != 0 {
				if err := os.WriteFile(path, []byte("old content that is longer\n"), c.existing); err != nil {
					t.Fatal(err)
				}
			}
			if err := atomicfile.Write(path, []byte("new\n"), c.perm); err != nil {
				t.Fatalf("Write() = %v", err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("new\n", string(b)); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != c.perm {
				t.Errorf("mode %v, want %v", got, c.perm)
			}
			if names := list(t, dir); len(names) != 1 {
				t.Errorf("directory holds %v, want only the target", names)
			}
		})
	}
}

func TestWriteIntoAMissingDirectoryFails(t *testing.T) {
	if err := atomicfile.Write(filepath.Join(t.TempDir(), "no", "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("Write() into a missing directory = nil")
	}
}

func list(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
