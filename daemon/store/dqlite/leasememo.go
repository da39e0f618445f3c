//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// txMemo is what a shared transaction (batch.go) has learnt from the
// leader, so that its calls do not ask again; inside one transaction the
// answers change only through its own writes, which update the memo.
//
//   - leases: the site leases read or written. Each journal append checks
//     its site's fence, and a site's appends come together, so the lease
//     is read once per transaction instead of once per append.
//   - runs: the runs' records (JSON) as the transaction last read or
//     wrote them, a run that several calls change is read once; cols,
//     their list columns (runColumns), so that SaveRun writes only the
//     record when they did not change and the runs' list indexes are
//     left alone (a step's write changes the record, seldom its status).
//   - seqs: each run's last journal sequence number, read with the run
//     (one request, not two); the append that follows takes its numbers
//     from it (NextEventSeqs).
type txMemo struct {
	leases map[string]leaseRead
	runs   map[string]string
	cols   map[string][]any
	seqs   map[string]uint64
}

type leaseRead struct {
	lease lifecycle.Lease
	found bool
}

// records is the records of tx (op.Funcs' Records), with the memo of the
// shared transaction tx is, if it is one.
func (s *Store) records(tx *sql.Tx) op.Tx {
	t := txn{Tx: tx}
	if m, ok := s.memos.Load(tx); ok {
		t.memo = m.(*txMemo)
	}
	return t
}

// memoize gives the shared transaction tx a memo until the returned
// function drops it.
func (s *Store) memoize(tx *sql.Tx) (drop func()) {
	s.memos.Store(tx, &txMemo{leases: map[string]leaseRead{}, runs: map[string]string{}, cols: map[string][]any{}, seqs: map[string]uint64{}})
	return func() { s.memos.Delete(tx) }
}

// lease is the memo's answer for siteID's lease; false when m is nil or
// has none.
func (m *txMemo) lease(siteID string) (leaseRead, bool) {
	if m == nil {
		return leaseRead{}, false
	}
	r, ok := m.leases[siteID]
	return r, ok
}

// seq is the memo's last journal sequence number of run; false when m is
// nil or has none.
func (m *txMemo) seq(runID string) (uint64, bool) {
	if m == nil {
		return 0, false
	}
	n, ok := m.seqs[runID]
	return n, ok
}
