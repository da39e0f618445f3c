// Package certledger is the clean certificates' ledger (cert.Ledger)
// written once over each store backend's records: the compare-and-set
// checks that keep every node's chain and every site's log linear, and
// the reads an export needs. A backend implements only Backend, the
// persistence of one record and its indexes inside its transactions
// (daemon/store/bolt, daemon/store/dqlite).
package certledger
