//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// NextEventSeqs implements op.Events: from one past the journal's last
// entry, which a shared transaction knows from its memo once LoadRun or
// an earlier append read it.
func (t txn) NextEventSeqs(runID string, n int) (uint64, error) {
	last, ok := t.memo.seq(runID)
	if !ok {
		if err := t.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM run_events WHERE run_id = ?`, runID).Scan(&last); err != nil {
			return 0, err
		}
	}
	if t.memo != nil {
		t.memo.seqs[runID] = last + uint64(n)
	}
	return last + 1, nil
}

// SaveEvent implements op.Events.
func (t txn) SaveEvent(e lifecycle.RunEvent) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO run_events (run_id, seq, data) VALUES (?, ?, ?)`, e.RunID, int64(e.Seq), data)
	return err
}

// RunEvents implements op.Events.
func (t txn) RunEvents(runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, bool, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	if ok, err := exists(t.Tx, `SELECT 1 FROM runs WHERE id = ?`, runID); err != nil || !ok {
		return nil, false, err
	}
	out, err := list[lifecycle.RunEvent](t.Tx, `SELECT data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
		runID, int64(afterSeq), limit)
	return out, true, err
}
