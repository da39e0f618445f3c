package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// CreateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) CreateEnrollmentToken(ctx context.Context, t lifecycle.EnrollmentToken) error {
	const op = "store.CreateEnrollmentToken"
	if err := rules.ValidateNewToken(op, t); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		b := tx.Bucket(bEnroll)
		if b.Get([]byte(t.Hash)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token already exists")
		}
		now := s.now()
		if err := invalidatePrevious(tx, t.NodeID, t.Hash, now); err != nil {
			return err
		}
		t.CreatedAt, t.UsedAt = now, nil
		if err := tx.Bucket(bEnrollNode).Put([]byte(t.NodeID), []byte(t.Hash)); err != nil {
			return err
		}
		return put(b, []byte(t.Hash), t)
	})
}

// invalidatePrevious supersedes the node's previous unused token by the
// one hashed by hash (rules.Supersede), so only the newest token works.
func invalidatePrevious(tx *bbolt.Tx, nodeID, hash string, now time.Time) error {
	prev := tx.Bucket(bEnrollNode).Get([]byte(nodeID))
	if prev == nil {
		return nil
	}
	var old lifecycle.EnrollmentToken
	ok, err := get(tx.Bucket(bEnroll), string(prev), &old)
	if err != nil || !ok {
		return err
	}
	if old, ok = rules.Supersede(old, hash, now); !ok {
		return nil
	}
	return put(tx.Bucket(bEnroll), prev, old)
}

// ConsumeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeEnrollmentToken"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bEnroll)
		ok, err := get(b, hash, &t)
		if err != nil {
			return err
		}
		var write bool
		if t, write, err = rules.Consume(op, t, ok, nodeID, keyID, s.now()); err != nil || !write {
			return err
		}
		return put(b, []byte(hash), t)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}

// TouchNodeContact implements lifecycle.EnrollmentStore.
func (s *Store) TouchNodeContact(ctx context.Context, nodeID string) error {
	const op = "store.TouchNodeContact"
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		n, err := loadNode(tx, op, nodeID)
		if err != nil {
			return err
		}
		now := s.now()
		n.LastContactAt = &now
		return putNode(tx, n)
	})
}

// ConsumeBootstrapTicket implements lifecycle.EnrollmentStore.
func (s *Store) ConsumeBootstrapTicket(ctx context.Context, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeBootstrapTicket"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bEnroll)
		ok, err := get(b, hash, &t)
		if err != nil {
			return err
		}
		if t, err = rules.ConsumeTicket(op, t, ok, s.now()); err != nil {
			return err
		}
		return put(b, []byte(hash), t)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}
