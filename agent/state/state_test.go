package state_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/state"
)

// Every file the agent keeps is 0600, also when it replaces a looser one,
// and the directory is 0700.
func TestFilesArePrivate(t *testing.T) {
	d := state.Dir(filepath.Join(t.TempDir(), "state"))
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(string(d), state.CAFile)
	if err := os.WriteFile(loose, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.SaveIdentity([]byte("key"), []byte("cert"), []byte("ca")); err != nil {
		t.Fatalf("SaveIdentity() = %v", err)
	}
	if err := d.SetHighWater(42); err != nil {
		t.Fatalf("SetHighWater() = %v", err)
	}
	if err := d.SavePendingKey([]byte("digest"), []byte("pending key")); err != nil {
		t.Fatalf("SavePendingKey() = %v", err)
	}
	want := map[string]os.FileMode{".": 0o700, state.KeyFile: 0o600, state.CertFile: 0o600, state.CAFile: 0o600,
		state.SeqFile: 0o600, state.PendingKeyFile: 0o600, state.PendingTokenFile: 0o600}
	for name, mode := range want {
		t.Run(name, func(t *testing.T) {
			fi, err := os.Stat(filepath.Join(string(d), name))
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != mode {
				t.Errorf("mode %v, want %v", got, mode)
			}
		})
	}
	if n, err := d.HighWater(); err != nil || n != 42 {
		t.Errorf("HighWater() = %d, %v; want 42", n, err)
	}
	if b, _ := os.ReadFile(loose); string(b) != "ca" {
		t.Errorf("%s = %q, want the new bundle", state.CAFile, b)
	}
	es, err := os.ReadDir(string(d))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != len(want)-1 {
		t.Errorf("state directory holds %d entries, want %d (no temporary files)", len(es), len(want)-1)
	}
}
