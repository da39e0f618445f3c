//go:build dqlite

package dqlite

// Shared says that several daemons use this store at once: the runner
// then scans it for what the other daemons wrote (runs submitted there,
// sites created there) and site leases move between daemons.
func (s *Store) Shared() bool { return true }
