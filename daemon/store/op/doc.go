// Package op writes each store operation once, over the records of a
// backend's transaction. A store backend (daemon/store/bolt,
// daemon/store/dqlite) keeps only its persistence: keys, encoding,
// indexes, SQL, and its transaction and retry machinery.
//
// # The pattern
//
// Every aggregate (leases, tasks, nodes, ...) has a small record interface
// here (Leases, Tasks, Nodes, ...): load, save and the lookups its indexes
// answer, in the aggregate's own terms, with no rule in it. A backend
// implements all of them on its transaction type, and Tx is their union.
// Backend runs a function in one write or read transaction of that type.
//
// Store implements the lifecycle store contracts over a Backend: each
// method opens the transaction, loads through the record interfaces,
// applies daemon/store/rules and saves. A backend's Store embeds op.Store,
// so the methods are the backend's own and lifecycle.Store is unchanged:
//
//	type Store struct {
//		op.Store
//		...
//	}
//	s.Store = op.New(backend{s}) // backend: Update, View, Now
//
// # Adding a record
//
// A new aggregate is one record interface in a file of its own here
// (named for the aggregate, the operations beside it), one line in Tx,
// and in each backend the interface's methods on its transaction type
// beside the keys or tables they use. The operation itself, with its
// checks and errors, is written here once; storetest proves both
// backends answer it alike.
package op
