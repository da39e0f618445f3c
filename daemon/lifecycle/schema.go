package lifecycle

// The schema contract every store backend meets (bbolt today, dqlite
// next). A store records the version of its layout, an integer: 0 is a
// store written before versions existed, and each Migration moves it to
// the next one. The rules:
//
//   - a new store is created at the newest version and runs no migration;
//   - migrations run in order, each in its own transaction that also
//     records its version, so a crash between two resumes after the last
//     one committed and none runs twice;
//   - before the first migration of an existing store a full copy is kept
//     beside it (the backup a failed upgrade is rolled back to);
//   - a store whose version is newer than the binary knows is refused
//     with a conflict naming both versions, and left untouched: a
//     downgrade must not corrupt state.

// Migration is one step of a store's schema.
type Migration struct {
	// Version is the schema version the store is at once it ran.
	Version int `json:"version"`
	// Name says what it changes, in one line for the operator.
	Name string `json:"name"`
}

// SchemaStatus is where a store stands against the running binary.
type SchemaStatus struct {
	// Version is the store's schema version.
	Version int `json:"version"`
	// Latest is the newest version this binary knows.
	Latest int `json:"latest"`
	// Pending are the migrations that bringing it to Latest would run, in
	// order; none when it is up to date.
	Pending []Migration `json:"pending"`
}

// AppliedMigration is a migration that ran, with what it did to this
// store (e.g. how many records it rewrote).
type AppliedMigration struct {
	Migration
	Detail string `json:"detail,omitempty"`
}

// MigrationReport is what bringing a store to the newest schema did.
type MigrationReport struct {
	// From and To are the versions before and after.
	From int `json:"from"`
	To   int `json:"to"`
	// Backup is the copy taken before the first migration; empty when
	// none ran.
	Backup string `json:"backup,omitempty"`
	// Ran are the migrations applied, in order.
	Ran []AppliedMigration `json:"ran"`
}
