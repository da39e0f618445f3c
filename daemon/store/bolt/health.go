package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// The node health buckets, created by the first write (a file without
// them has no health record, as the certificate buckets).
var (
	bHealth    = []byte("node_health")     // node id -> health verdict and checks
	bHealthLog = []byte("node_health_log") // node id + 0 + seq -> health history entry
	bHealthIDs = []byte("node_health_ids") // node id + 0 + entry id -> seq
)

// healthBucket returns a health bucket, creating it in a write
// transaction; nil in a read transaction before the first write.
func (t txn) healthBucket(name []byte) (*bbolt.Bucket, error) {
	if b := t.Bucket(name); b != nil || !t.Writable() {
		return b, nil
	}
	return t.CreateBucket(name)
}

// healthKey is an entry's key in bHealthLog: node id, 0, sequence.
func healthKey(nodeID string, seq uint64) []byte { return prefixed(nodeID, seq) }

// NodeHealth implements op.Health.
func (t txn) NodeHealth(nodeID string) (lifecycle.NodeHealth, bool, error) {
	var h lifecycle.NodeHealth
	b, err := t.healthBucket(bHealth)
	if b == nil || err != nil {
		return h, false, err
	}
	ok, err := get(b, nodeID, &h)
	return h, ok, err
}

// SaveNodeHealth implements op.Health.
func (t txn) SaveNodeHealth(h lifecycle.NodeHealth) error {
	b, err := t.healthBucket(bHealth)
	if err != nil {
		return err
	}
	return put(b, []byte(h.NodeID), h)
}

// AllNodeHealth implements op.Health.
func (t txn) AllNodeHealth() ([]lifecycle.NodeHealth, error) {
	out := []lifecycle.NodeHealth{}
	b, err := t.healthBucket(bHealth)
	if b == nil || err != nil {
		return out, err
	}
	err = b.ForEach(func(k, _ []byte) error {
		var h lifecycle.NodeHealth
		_, err := get(b, string(k), &h)
		out = append(out, h)
		return err
	})
	return out, err
}

// HealthEntryByID implements op.Health through the id index.
func (t txn) HealthEntryByID(nodeID, id string) (lifecycle.HealthEntry, bool, error) {
	var e lifecycle.HealthEntry
	ids, err := t.healthBucket(bHealthIDs)
	if ids == nil || err != nil {
		return e, false, err
	}
	seq := ids.Get(key(nodeID, id))
	if seq == nil {
		return e, false, nil
	}
	ok, err := get(t.Bucket(bHealthLog), string(healthKey(nodeID, binary.BigEndian.Uint64(seq))), &e)
	return e, ok, err
}

// SaveHealthEntry implements op.Health.
func (t txn) SaveHealthEntry(e lifecycle.HealthEntry) error {
	ids, err := t.healthBucket(bHealthIDs)
	if err != nil {
		return err
	}
	log, err := t.healthBucket(bHealthLog)
	if err != nil {
		return err
	}
	if err := ids.Put(key(e.NodeID, e.ID), u64(e.Seq)); err != nil {
		return err
	}
	return put(log, healthKey(e.NodeID, e.Seq), e)
}

// HealthEntries implements op.Health, walking the node's keys backwards.
func (t txn) HealthEntries(nodeID string, limit int) ([]lifecycle.HealthEntry, error) {
	out := []lifecycle.HealthEntry{}
	b, err := t.healthBucket(bHealthLog)
	if b == nil || err != nil {
		return out, err
	}
	pre := append([]byte(nodeID), 0)
	c := b.Cursor()
	// the node's last key is just before the first key past its prefix
	var k, v []byte
	if first, _ := c.Seek(append([]byte(nodeID), 1)); first == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, pre) && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
		var e lifecycle.HealthEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
