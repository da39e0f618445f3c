package bolt

import (
	"context"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// NodeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) NodeEnrollmentToken(ctx context.Context, nodeID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.NodeEnrollmentToken"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := newestToken(tx, nodeID, &t)
		if err == nil && !ok {
			err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "node %s has no enrollment token", nodeID)
		}
		return err
	})
	return t, err
}

// newestToken loads the node's newest token into t.
func newestToken(tx *bbolt.Tx, nodeID string, t *lifecycle.EnrollmentToken) (bool, error) {
	h := tx.Bucket(bEnrollNode).Get([]byte(nodeID))
	if h == nil {
		return false, nil
	}
	return get(tx.Bucket(bEnroll), string(h), t)
}

// GrantEnrollmentRenewal implements lifecycle.EnrollmentStore.
func (s *Store) GrantEnrollmentRenewal(ctx context.Context, nodeID string, until time.Time) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.GrantEnrollmentRenewal"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := newestToken(tx, nodeID, &t)
		if err != nil {
			return err
		}
		if t, err = rules.Grant(op, t, ok, until); err != nil {
			return err
		}
		return put(tx.Bucket(bEnroll), []byte(t.Hash), t)
	})
	return t, err
}

// RenewEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) RenewEnrollmentToken(ctx context.Context, hash, nodeID string, next lifecycle.EnrollmentToken) (out lifecycle.EnrollmentToken, err error) {
	const op = "store.RenewEnrollmentToken"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		r, err := loadRenewal(tx, op, hash, nodeID, next)
		if err != nil {
			return err
		}
		old, created, replay, err := rules.Renew(op, r, nodeID, s.now())
		switch {
		case err != nil:
			return err
		case replay:
			_, err = get(tx.Bucket(bEnroll), next.Hash, &out)
			return err
		}
		out = created
		return storeRenewal(tx, op, old, created)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return out, nil
}

// loadRenewal reads what rules.Renew decides on.
func loadRenewal(tx *bbolt.Tx, op, hash, nodeID string, next lifecycle.EnrollmentToken) (r rules.Renewal, err error) {
	r.Next, r.Newest = next, string(tx.Bucket(bEnrollNode).Get([]byte(nodeID)))
	if r.Found, err = get(tx.Bucket(bEnroll), hash, &r.Old); err != nil {
		return r, err
	}
	r.Node, err = loadNode(tx, op, nodeID)
	return r, err
}

// storeRenewal writes the spent token and its successor, now the node's
// newest.
func storeRenewal(tx *bbolt.Tx, op string, old, next lifecycle.EnrollmentToken) error {
	b := tx.Bucket(bEnroll)
	if b.Get([]byte(next.Hash)) != nil {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token already exists")
	}
	if err := put(b, []byte(old.Hash), old); err != nil {
		return err
	}
	if err := put(b, []byte(next.Hash), next); err != nil {
		return err
	}
	return tx.Bucket(bEnrollNode).Put([]byte(next.NodeID), []byte(next.Hash))
}
