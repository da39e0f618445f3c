package bolt

import (
	"bytes"
	"encoding/binary"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// doneKey is an event's key in bOutboxDone: the delivery time (Unix
// nanoseconds) then the outbox sequence, both big-endian, so a cursor
// walks the delivered events oldest delivery first.
func doneKey(at time.Time, seq uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(at.UnixNano()))
	binary.BigEndian.PutUint64(k[8:], seq)
	return k
}

// PruneOutbox implements op.Outbox: it walks bOutboxDone from the oldest
// delivery and deletes each event's record, id and index entry, skipping
// those whose run is not Terminal.
func (t txn) PruneOutbox(before time.Time, limit int) (n int, err error) {
	doomed, err := prunable(t.Tx, doneKey(before, 0), limit)
	if err != nil {
		return 0, err
	}
	for _, key := range doomed {
		if err := deleteDelivered(t.Tx, key); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// prunable returns up to limit index keys below end whose event may go.
func prunable(tx *bbolt.Tx, end []byte, limit int) ([][]byte, error) {
	var out [][]byte
	c := tx.Bucket(bOutboxDone).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, end) < 0 && len(out) < limit; k, _ = c.Next() {
		var e lifecycle.OutboxEvent
		if _, err := get(tx.Bucket(bOutbox), string(k[8:]), &e); err != nil {
			return nil, err
		}
		keep, err := runCanAct(tx, e.RunID)
		if err != nil {
			return nil, err
		}
		if !keep {
			out = append(out, append([]byte(nil), k...))
		}
	}
	return out, nil
}

// runCanAct says whether run id exists and is not Terminal: its stages may
// run again and publish their events again.
func runCanAct(tx *bbolt.Tx, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	var r lifecycle.Run
	ok, err := get(tx.Bucket(bRuns), id, &r)
	return ok && !r.Status.Terminal(), err
}

func deleteDelivered(tx *bbolt.Tx, key []byte) error {
	seq := key[8:]
	box := tx.Bucket(bOutbox)
	var e lifecycle.OutboxEvent
	if ok, err := get(box, string(seq), &e); err != nil {
		return err
	} else if ok {
		if err := tx.Bucket(bOutboxIDs).Delete([]byte(e.ID)); err != nil {
			return err
		}
		if err := box.Delete(seq); err != nil {
			return err
		}
	}
	return tx.Bucket(bOutboxDone).Delete(key)
}
