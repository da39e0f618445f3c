//go:build dqlite

package dqlite

import (
	godqlite "github.com/canonical/go-dqlite"
	"github.com/canonical/go-dqlite/app"
)

// snapshotEvery and snapshotTrailing are the node's Raft snapshot
// parameters: a snapshot after every snapshotEvery log entries, keeping
// the last snapshotTrailing entries after it (libdqlite's defaults are
// 1,024 and 8,192). Each node keeps the entries since its last snapshot
// in memory, so the trailing entries are most of a busy node's memory
// beyond the database; a member that falls further behind than them is
// sent a snapshot instead, which on a LAN costs less than the memory.
const (
	snapshotEvery    = 1024
	snapshotTrailing = 1024
)

func snapshotOption() app.Option {
	return app.WithSnapshotParams(godqlite.SnapshotParams{Threshold: snapshotEvery, Trailing: snapshotTrailing})
}
