package bolt

import (
	"bytes"
	"context"
	"encoding/binary"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

var _ lifecycle.Importer = (*Store)(nil)

// Import implements lifecycle.Importer in one write transaction: each
// record goes to its bucket with its index entries, and every counter
// (audit, journals, inbox, outbox) continues after the imported numbers.
func (s *Store) Import(ctx context.Context, recs []lifecycle.Record) error {
	const op = "store.Import"
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if err := mustBeEmpty(tx, op); err != nil {
			return err
		}
		for _, r := range recs {
			if err := importRecord(tx, r); err != nil {
				return err
			}
		}
		return settleSequences(tx)
	})
}

// mustBeEmpty fails with conflict when any bucket but meta holds a key.
func mustBeEmpty(tx *bbolt.Tx, op string) error {
	for _, name := range allBuckets {
		if bytes.Equal(name, bMeta) {
			continue
		}
		if k, _ := tx.Bucket(name).Cursor().First(); k != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "the target store is not empty (bucket %s holds records); import needs an empty store", name)
		}
	}
	for _, name := range [][]byte{bCertLog, bParts} {
		if b := tx.Bucket(name); b != nil {
			if k, _ := b.Cursor().First(); k != nil {
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "the target store is not empty (bucket %s holds records); import needs an empty store", name)
			}
		}
	}
	return nil
}

// settleSequences moves the audit and journal counters to their highest
// imported number (those records are never deleted, so it is their last
// one); the inbox and outbox counters came with their sequence records
// and only move forward here.
func settleSequences(tx *bbolt.Tx) error {
	for _, name := range [][]byte{bAudit, bInbox, bOutbox} {
		if err := atLeastLastKey(tx.Bucket(name)); err != nil {
			return err
		}
	}
	events := tx.Bucket(bEvents)
	return events.ForEachBucket(func(run []byte) error {
		return atLeastLastKey(events.Bucket(run))
	})
}

func atLeastLastKey(b *bbolt.Bucket) error {
	k, _ := b.Cursor().Last()
	if len(k) != 8 {
		return nil
	}
	if last := binary.BigEndian.Uint64(k); last > b.Sequence() {
		return b.SetSequence(last)
	}
	return nil
}
