// Package op writes each store operation once, over the records of a
// backend's transaction. A store backend (daemon/store/bolt,
// daemon/store/dqlite) keeps only its persistence: keys, encoding,
// indexes, SQL, and its transaction and retry machinery; the list pages
// and bulk paths whose speed rests on its indexes (exports, imports,
// webhook ingest, the outbox) stay beside them.
//
// # The pattern
//
// Every aggregate has a small record interface here, in the file of its
// operations: Leases, Tasks, Nodes, Sites, Runs, Events, MaasStates,
// Enrollment, SiteConfig, AdminTokens, Audit, FeedCursors, Outbox,
// Removals, Submissions. Its methods load, save and answer the lookups the
// backend's indexes make cheap, in the aggregate's own terms (LoadX
// returns false when there is none; SaveX writes and moves index
// entries), and hold no rule. A backend implements all of them on its
// transaction type; Tx is their union.
//
// Store implements the lifecycle store contracts over a Backend: each
// method validates its arguments, opens one transaction (Update, Batch
// for a write many callers make at once, or View), loads through the
// records, applies daemon/store/rules, and saves. Errors are the
// lifecycle errors the operation names (store.ClaimTask, ...); the
// backend wraps its own once. A backend's Store embeds op.Store, so the
// methods are its own and lifecycle.Store is unchanged:
//
//	type Store struct {
//		op.Store
//		...
//	}
//	s.Store = op.New(op.Funcs[*bbolt.Tx]{Write: s.update, Shared: s.batch,
//		Read: s.view, Clock: s.now, Records: func(tx *bbolt.Tx) op.Tx { return txn{tx} }})
//
// # Adding a record kind
//
//  1. Here: the record interface (the fewest methods the operations need)
//     and its operations as Store methods, in a file named for the
//     aggregate; one line in Tx.
//  2. In each backend: the interface's methods on its txn type, beside
//     its buckets or tables (and a migration for a new table or bucket).
//  3. In daemon/store/storetest: the behaviour, which both backends then
//     run unchanged.
//
// A compare-and-append (a log head that must match before a write) is
// the same shape as CheckFence and the journal appends: load the head in
// the write transaction, check it, write; the backend's transaction makes
// it atomic.
package op
