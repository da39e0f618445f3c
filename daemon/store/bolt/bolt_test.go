package bolt_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
		path := filepath.Join(t.TempDir(), bolt.FileName)
		return storetest.Harness{Open: func(t *testing.T) lifecycle.Store {
			return mustOpen(t, path, clock)
		}}
	})
}

// mustOpen opens the store and checks the file's consistency on cleanup.
func mustOpen(t *testing.T, path string, clock *clockwork.FakeClock) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		re, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			t.Errorf("reopen for check: %v", err)
			return
		}
		defer re.Close()
		if err := re.Check(); err != nil {
			t.Errorf("consistency check: %v", err)
		}
	})
	return s
}

func TestSecondOpenFailsFastWhileLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	s := mustOpen(t, path, storetest.NewClock())
	_, err := bolt.Open(path, bolt.Options{LockTimeout: 50 * time.Millisecond})
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
}

func TestFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	mustOpen(t, path, storetest.NewClock())
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("store file mode %v, want 0600", fi.Mode().Perm())
	}
}
