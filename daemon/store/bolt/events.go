package bolt

import (
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// NextEventSeqs implements op.Events: the journal bucket's sequence.
func (t txn) NextEventSeqs(runID string, n int) (uint64, error) {
	b := t.Bucket(bEvents).Bucket([]byte(runID))
	if b == nil {
		return 0, lifecycle.Errorf(lifecycle.CodeInternal, "store.appendEvents", "run %s has no event history", runID)
	}
	first := b.Sequence() + 1
	return first, b.SetSequence(first + uint64(n) - 1)
}

// SaveEvent implements op.Events.
func (t txn) SaveEvent(e lifecycle.RunEvent) error {
	return put(t.Bucket(bEvents).Bucket([]byte(e.RunID)), u64(e.Seq), e)
}

// RunEvents implements op.Events with a cursor over the run's bucket.
func (t txn) RunEvents(runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, bool, error) {
	b := t.Bucket(bEvents).Bucket([]byte(runID))
	if b == nil {
		return nil, false, nil
	}
	out := []lifecycle.RunEvent{}
	c := b.Cursor()
	for k, v := c.Seek(u64(afterSeq + 1)); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
		var e lifecycle.RunEvent
		if err := json.Unmarshal(v, &e); err != nil {
			return nil, true, err
		}
		out = append(out, e)
	}
	return out, true, nil
}
