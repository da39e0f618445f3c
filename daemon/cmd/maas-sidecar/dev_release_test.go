//go:build !dev

package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseRefusesDev: the release build (no dev tag; make test runs
// this with the dqlite tags, as make deb builds) answers --dev with a
// usage error that says how to get dev mode, and creates no state.
func TestReleaseRefusesDev(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	for _, args := range [][]string{{"--dev"}, {"--dev", "--dev-idle"}} {
		code, _, stderr := runBinary(t, append([]string{"serve", "--state-dir", state}, args...)...)
		want := "maas-sidecar serve: --dev is not in this build; it is a development mode built with `-tags dev` (make run)"
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("maas-sidecar serve %v = exit %d, stderr %q; want exit 2 and %q", args, code, stderr, want)
		}
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("state dir after a refused --dev: %v; want none", err)
	}
}
