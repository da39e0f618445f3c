//go:build dqlite

package dqlite

import (
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// PruneOutbox implements op.Outbox: candidates in delivery order, each
// run's state read once.
func (t txn) PruneOutbox(before time.Time, limit int) (n int, err error) {
	cands, err := delivered(t.Tx, before)
	if err != nil {
		return 0, err
	}
	acts := map[string]bool{}
	for _, c := range cands {
		if n == limit {
			break
		}
		act, seen := acts[c.runID]
		if !seen {
			if act, err = runCanAct(t.Tx, c.runID); err != nil {
				return n, err
			}
			acts[c.runID] = act
		}
		if act {
			continue
		}
		if _, err := t.Exec(`DELETE FROM outbox WHERE seq = ?`, c.seq); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

type candidate struct {
	seq   int64
	runID string
}

// delivered lists the events delivered before the cutoff, oldest delivery
// first (the outbox_delivered index).
func delivered(tx *sql.Tx, before time.Time) ([]candidate, error) {
	rows, err := tx.Query(`SELECT seq, run_id FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?
		ORDER BY delivered_at, seq`, before.UnixNano())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.seq, &c.runID); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// runCanAct says whether run id exists and is not Terminal.
func runCanAct(tx *sql.Tx, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	var r lifecycle.Run
	ok, err := get(tx, &r, `SELECT data FROM runs WHERE id = ?`, id)
	return ok && !r.Status.Terminal(), err
}
