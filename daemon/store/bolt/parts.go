package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// bParts is the part histories' bucket, created by the first event (a
// file without it has none): serial + 0 + event id -> lifecycle.PartEvent.
var bParts = []byte("part_events")

func partKey(serial, id string) []byte { return append(append([]byte(serial), 0), id...) }

// PartEventExists implements op.Parts.
func (t txn) PartEventExists(serial, id string) (bool, error) {
	b := t.Bucket(bParts)
	return b != nil && b.Get(partKey(serial, id)) != nil, nil
}

// SavePartEvent implements op.Parts.
func (t txn) SavePartEvent(e lifecycle.PartEvent) error {
	b, err := t.CreateBucketIfNotExists(bParts)
	if err != nil {
		return err
	}
	return put(b, partKey(e.Serial, e.ID), e)
}

// PartEvents implements op.Parts: the keys under the serial's prefix.
func (t txn) PartEvents(serial string) ([]lifecycle.PartEvent, error) {
	b := t.Bucket(bParts)
	if b == nil {
		return nil, nil
	}
	p := append([]byte(serial), 0)
	var out []lifecycle.PartEvent
	c := b.Cursor()
	for k, _ := c.Seek(p); k != nil && len(k) > len(p) && string(k[:len(p)]) == string(p); k, _ = c.Next() {
		var e lifecycle.PartEvent
		if _, err := get(b, string(k), &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// exportParts emits every part event, by serial then id.
func exportParts(tx *bbolt.Tx, fn func(lifecycle.Record) error) error {
	b := tx.Bucket(bParts)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var e lifecycle.PartEvent
		if _, err := get(b, string(k), &e); err != nil {
			return err
		}
		return emit(e, fn)
	})
}
