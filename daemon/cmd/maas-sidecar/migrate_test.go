package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oldState is a state directory holding the store file of schema version
// 0 that the daemon wrote before versions existed.
func oldState(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../store/bolt/testdata/state-v0.db")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "maas-sidecar.db"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// migrate --check lists what is pending, migrate runs it and says so,
// and both are quiet successes once the store is up to date or absent.
func TestMigrateCommand(t *testing.T) {
	state := oldState(t)
	db := filepath.Join(state, "maas-sidecar.db")
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"check finds a migration", []string{"--check"}, 1, []string{db + ": schema version 0, this binary's is 3",
			"pending: version 1: index delivered outbox events", "pending: version 2: index nodes by site, status and hostname", "pending: version 3: index runs by kind"}},
		{"migrate", nil, 0, []string{db + ": schema version 0, backed up to " + db + ".pre-v1.bak",
			"migrated to version 1: index delivered outbox events by delivery time, so they can be pruned (8 delivered events indexed)",
			"migrated to version 2: index nodes by site, status and hostname, and runs by request time, site, node, batch and status, for list pages (8 nodes and 11 runs indexed)",
			"migrated to version 3: index runs by kind, alone and with site or status, for decommission and onboarding list pages (11 runs indexed by kind)",
			db + ": schema version 3, up to date"}},
		{"migrate again", nil, 0, []string{db + ": schema version 3, up to date"}},
		{"check after", []string{"--check"}, 0, []string{"up to date"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			args := append([]string{"migrate", "--config", empty, "--state-dir", state}, s.args...)
			code, out, stderr := runBinary(t, args...)
			for _, want := range s.out {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if code != s.code || stderr != "" {
				t.Errorf("exit %d, stderr %q; want %d and nothing", code, stderr, s.code)
			}
		})
	}
	if _, err := os.Stat(db + ".pre-v1.bak"); err != nil {
		t.Errorf("backup: %v", err)
	}
	for _, args := range [][]string{{"migrate"}, {"migrate", "--check"}} {
		none := filepath.Join(t.TempDir(), "none")
		code, out, _ := runBinary(t, append(args, "--config", empty, "--state-dir", none)...)
		if code != 0 || !strings.Contains(out, "no store yet, nothing to migrate") {
			t.Errorf("%v without a store = exit %d, %q; want 0 and nothing to migrate", args, code, out)
		}
		if _, err := os.Stat(none); !os.IsNotExist(err) {
			t.Errorf("%v created the state dir: %v", args, err)
		}
	}
	if code, _, stderr := runBinary(t, "migrate", "--config", empty, "extra"); code != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("migrate extra = exit %d, %q; want a usage error", code, stderr)
	}
}

// serve migrates an old store when it starts, logging the backup and each
// migration, and then serves; migrate fails fast while it holds the file.
func TestServeMigratesAndMigrateWaitsForIt(t *testing.T) {
	state := oldState(t)
	p := startServe(t, state, nil)
	if l := p.waitLog("store migrated"); l["version"] != float64(1) {
		t.Errorf("migration log line %v, want version 1", l)
	}
	if l := p.waitLog("store backed up before migrating"); l["backup"] != filepath.Join(state, "maas-sidecar.db.pre-v1.bak") {
		t.Errorf("backup log line %v", l)
	}
	p.waitReady()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("store_lock_timeout: 200ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runBinary(t, "migrate", "--config", cfg, "--state-dir", state)
	if code != 1 || !strings.Contains(stderr, "locked by another process (stop maas-sidecar first)") {
		t.Errorf("migrate beside serve = exit %d, %q; want 1 and the lock named", code, stderr)
	}
	stop(t, p)
}
