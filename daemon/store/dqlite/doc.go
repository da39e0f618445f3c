// Package dqlite is lifecycle.Store on dqlite: SQLite replicated by Raft
// (go-dqlite's app package against Debian's libdqlite). It is built only
// with the dqlite build tag and cgo (go build -tags dqlite,libsqlite3); a
// default or CGO_ENABLED=0 build leaves it out and keeps bbolt only.
//
// Records are JSON in a data column of one table per record kind; the
// columns the store looks up, orders or constrains on (ids, site, name,
// hostname, status, epoch) are real columns beside it. Every write is one
// SQL transaction, and a fenced write reads the site's lease epoch inside
// that transaction, as the bbolt store does. The schema carries a version
// (table schema_version) and is moved by ordered SQL migrations.
package dqlite
