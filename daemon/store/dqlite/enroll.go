//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// CreateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) CreateEnrollmentToken(ctx context.Context, t lifecycle.EnrollmentToken) error {
	const op = "store.CreateEnrollmentToken"
	if err := rules.ValidateNewToken(op, t); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		if ok, err := exists(tx, `SELECT 1 FROM enrollment_tokens WHERE hash = ?`, t.Hash); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token already exists")
			}
			return err
		}
		now := s.now()
		if err := invalidatePrevious(tx, t.NodeID, t.Hash, now); err != nil {
			return err
		}
		t.CreatedAt, t.UsedAt = now, nil
		if _, err := tx.Exec(`INSERT INTO enrollment_newest (node_id, hash) VALUES (?1, ?2)
			ON CONFLICT (node_id) DO UPDATE SET hash = excluded.hash`, t.NodeID, t.Hash); err != nil {
			return err
		}
		return saveEnroll(tx, t, true)
	})
}

// invalidatePrevious supersedes the node's previous unused token by the
// one hashed by hash (rules.Supersede), so only the newest token works.
func invalidatePrevious(tx *sql.Tx, nodeID, hash string, now time.Time) error {
	var old lifecycle.EnrollmentToken
	ok, err := get(tx, &old, newestTokenQuery, nodeID)
	if err != nil || !ok {
		return err
	}
	if old, ok = rules.Supersede(old, hash, now); !ok {
		return nil
	}
	return saveEnroll(tx, old, false)
}

// ConsumeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeEnrollmentToken"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, `SELECT data FROM enrollment_tokens WHERE hash = ?`, hash)
		if err != nil {
			return err
		}
		var write bool
		if t, write, err = rules.Consume(op, t, ok, nodeID, keyID, s.now()); err != nil || !write {
			return err
		}
		return saveEnroll(tx, t, false)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}

// TouchNodeContact implements lifecycle.EnrollmentStore.
func (s *Store) TouchNodeContact(ctx context.Context, nodeID string) error {
	const op = "store.TouchNodeContact"
	return s.update(ctx, op, func(tx *sql.Tx) error {
		n, err := loadNode(tx, op, nodeID)
		if err != nil {
			return err
		}
		now := s.now()
		n.LastContactAt = &now
		return saveNode(tx, n, false)
	})
}

func saveEnroll(tx *sql.Tx, t lifecycle.EnrollmentToken, create bool) error {
	data, err := js(t)
	if err != nil {
		return err
	}
	q := `UPDATE enrollment_tokens SET data = ?3 WHERE hash = ?1 AND node_id = ?2`
	if create {
		q = `INSERT INTO enrollment_tokens (hash, node_id, data) VALUES (?1, ?2, ?3)`
	}
	_, err = tx.Exec(q, t.Hash, t.NodeID, data)
	return err
}

// ConsumeBootstrapTicket implements lifecycle.EnrollmentStore.
func (s *Store) ConsumeBootstrapTicket(ctx context.Context, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeBootstrapTicket"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, `SELECT data FROM enrollment_tokens WHERE hash = ?`, hash)
		if err != nil {
			return err
		}
		if t, err = rules.ConsumeTicket(op, t, ok, s.now()); err != nil {
			return err
		}
		return saveEnroll(tx, t, false)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}
