//go:build integration

package installtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// v0Fixture is the store file a release without a schema version wrote
// (daemon/store/bolt/testdata/README.md).
const v0Fixture = "../../daemon/store/bolt/testdata/state-v0.db"

// stateFile is the daemon's store file in its state directory.
const stateFile = sidecarState + "/maas-sidecar.db"

// recordBuckets are the domain records an upgrade must keep, one key per
// record.
var recordBuckets = []string{"sites", "nodes", "runs"}

// recordCounts counts the records of a store file, read from a copy so
// that the bbolt lock of the original is never taken.
func recordCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(cp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(cp, 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("open store copy of %s: %v", path, err)
	}
	defer db.Close()
	counts := map[string]int{}
	err = db.View(func(tx *bbolt.Tx) error {
		for _, name := range recordBuckets {
			if bk := tx.Bucket([]byte(name)); bk != nil {
				counts[name] = bk.Stats().KeyN
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts
}
