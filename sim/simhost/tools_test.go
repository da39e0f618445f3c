package simhost

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// provision runs the fakehost binary beside the daemon (provision, then
// residue), and boots the host bare when it is absent.
func TestProvision(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	root := filepath.Join(dir, "root")
	if err := provision(context.Background(), root, Options{ToolsDir: dir, Residue: `{"user":"t"}`}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("without the tools: %v, want a bare boot", err)
	}
	script := "#!/bin/sh\necho \"$@\" >> " + calls + "\n"
	if err := os.WriteFile(filepath.Join(dir, "fakehost"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := provision(context.Background(), root, Options{ToolsDir: dir, Residue: `{"user":"t"}`}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(calls)
	want := []string{"provision --root " + root + " --gpus nvidia:8 --tools-dir " + dir, "residue --root " + root + ` {"user":"t"}`}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSpace(string(b)), "\n")); diff != "" {
		t.Errorf("fakehost calls (-want +got):\n%s", diff)
	}
}
