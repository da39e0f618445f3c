//go:build dqlite

package dqlite

import (
	godqlite "github.com/canonical/go-dqlite"
	"github.com/canonical/go-dqlite/app"
)

// snapshotEvery and snapshotTrailing are the node's Raft snapshot
// parameters: a snapshot after every snapshotEvery log entries, keeping
// the last snapshotTrailing entries after it (libdqlite's defaults are
// 1,024 and 8,192; it refuses fewer trailing entries than the
// threshold). Each node keeps the entries since its last snapshot in
// memory, and an entry is a whole shared transaction (the pages of many
// journal writes), so these entries are most of a busy node's memory
// beyond the database: at 1,024 and 1,024 three nodes held 792 MiB in
// the 1,000-onboarding benchmark, at 256 and 256 443 MiB, in the same
// time per transition. A member that falls further behind than the
// trailing entries is sent a snapshot instead, which on a LAN costs less
// than the memory.
const (
	snapshotEvery    = 256
	snapshotTrailing = 256
)

func snapshotOption() app.Option {
	return app.WithSnapshotParams(godqlite.SnapshotParams{Threshold: snapshotEvery, Trailing: snapshotTrailing})
}
