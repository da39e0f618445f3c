package bolt

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// AppendTestMigrations adds migrations after the real ones until the test
// ends (so the tests can run more than one).
func AppendTestMigrations(t *testing.T, runs ...func(*bbolt.Tx) (string, error)) {
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	ms := slices.Clone(saved)
	for _, run := range runs {
		v := len(ms) + 1
		ms = append(ms, migration{lifecycle.Migration{Version: v, Name: fmt.Sprintf("test migration %d", v)}, run})
	}
	migrations = ms
}

// HoldBatches makes a shared write wait d for company before it commits,
// so a test's concurrent writes land in one group commit. Call it before
// the writes begin.
func (s *Store) HoldBatches(d time.Duration) { s.db.MaxBatchDelay = d }
