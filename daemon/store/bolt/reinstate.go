package bolt

import (
	"context"

	bbolt "go.etcd.io/bbolt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ReinstateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) ReinstateEnrollmentToken(ctx context.Context, nodeID, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ReinstateEnrollmentToken"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bEnroll)
		found, err := get(b, hash, &t)
		if err != nil {
			return err
		}
		var newest lifecycle.EnrollmentToken
		if _, err := newestToken(tx, nodeID, &newest); err != nil {
			return err
		}
		var write bool
		if t, newest, write, err = rules.Reinstate(op, t, found, newest, nodeID, s.now()); err != nil || !write {
			return err
		}
		if err := put(b, []byte(newest.Hash), newest); err != nil {
			return err
		}
		if err := tx.Bucket(bEnrollNode).Put([]byte(nodeID), []byte(t.Hash)); err != nil {
			return err
		}
		return put(b, []byte(t.Hash), t)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}
