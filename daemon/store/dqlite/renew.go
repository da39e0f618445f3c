//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

const newestTokenQuery = `SELECT t.data FROM enrollment_newest n JOIN enrollment_tokens t ON t.hash = n.hash WHERE n.node_id = ?`

// NodeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) NodeEnrollmentToken(ctx context.Context, nodeID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.NodeEnrollmentToken"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, newestTokenQuery, nodeID)
		if err == nil && !ok {
			err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "node %s has no enrollment token", nodeID)
		}
		return err
	})
	return t, err
}

// GrantEnrollmentRenewal implements lifecycle.EnrollmentStore.
func (s *Store) GrantEnrollmentRenewal(ctx context.Context, nodeID string, until time.Time) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.GrantEnrollmentRenewal"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, newestTokenQuery, nodeID)
		if err != nil {
			return err
		}
		if t, err = rules.Grant(op, t, ok, until); err != nil {
			return err
		}
		return saveEnroll(tx, t, false)
	})
	return t, err
}

// RenewEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) RenewEnrollmentToken(ctx context.Context, hash, nodeID string, next lifecycle.EnrollmentToken) (out lifecycle.EnrollmentToken, err error) {
	const op = "store.RenewEnrollmentToken"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		r, err := loadRenewal(tx, op, hash, nodeID, next)
		if err != nil {
			return err
		}
		old, created, replay, err := rules.Renew(op, r, nodeID, s.now())
		switch {
		case err != nil:
			return err
		case replay:
			_, err = get(tx, &out, `SELECT data FROM enrollment_tokens WHERE hash = ?`, next.Hash)
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
func loadRenewal(tx *sql.Tx, op, hash, nodeID string, next lifecycle.EnrollmentToken) (r rules.Renewal, err error) {
	r.Next = next
	if err = tx.QueryRow(`SELECT hash FROM enrollment_newest WHERE node_id = ?`, nodeID).Scan(&r.Newest); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return r, err
	}
	if r.Found, err = get(tx, &r.Old, `SELECT data FROM enrollment_tokens WHERE hash = ?`, hash); err != nil {
		return r, err
	}
	r.Node, err = loadNode(tx, op, nodeID)
	return r, err
}

// storeRenewal writes the spent token and its successor, now the node's
// newest.
func storeRenewal(tx *sql.Tx, op string, old, next lifecycle.EnrollmentToken) error {
	if ok, err := exists(tx, `SELECT 1 FROM enrollment_tokens WHERE hash = ?`, next.Hash); err != nil || ok {
		if err == nil {
			err = lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token already exists")
		}
		return err
	}
	if err := saveEnroll(tx, old, false); err != nil {
		return err
	}
	if err := saveEnroll(tx, next, true); err != nil {
		return err
	}
	_, err := tx.Exec(`UPDATE enrollment_newest SET hash = ?2 WHERE node_id = ?1`, next.NodeID, next.Hash)
	return err
}
