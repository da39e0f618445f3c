// Package rules holds the domain rules that every store backend applies
// inside its transactions: which task a node may claim next, whether a run
// may advance, who may take or keep a site lease, how events are stamped,
// which node transitions and site changes are valid, and what an
// enrollment token must satisfy.
//
// The functions are pure: they take the records a backend loaded and
// return the records to write or a lifecycle.Error. The backends
// (daemon/store/bolt, daemon/store/dqlite) keep only their I/O, so a rule
// changes in one place and both stores follow it.
package rules
