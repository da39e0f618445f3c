package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Enrollment are the enrollment tokens by hash, with each node's newest.
type Enrollment interface {
	// LoadEnrollToken returns the token; false when there is none.
	LoadEnrollToken(hash string) (lifecycle.EnrollmentToken, bool, error)
	// EnrollTokenExists says whether a token has the hash.
	EnrollTokenExists(hash string) (bool, error)
	// NewestEnrollToken returns the node's newest token; false when the
	// node never had one.
	NewestEnrollToken(nodeID string) (lifecycle.EnrollmentToken, bool, error)
	// NewestEnrollHash returns the hash of the node's newest token, "" when
	// it never had one.
	NewestEnrollHash(nodeID string) (string, error)
	// SaveEnrollToken writes t, a new token when create; when newest it
	// becomes its node's newest.
	SaveEnrollToken(t lifecycle.EnrollmentToken, create, newest bool) error
}

// CreateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s Store) CreateEnrollmentToken(ctx context.Context, t lifecycle.EnrollmentToken) error {
	const op = "store.CreateEnrollmentToken"
	if err := rules.ValidateNewToken(op, t); err != nil {
		return err
	}
	// Shared: every onboarding of a batch creates its token at once.
	return s.b.Batch(ctx, op, func(tx Tx) error {
		if _, err := LoadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		if err := tokenFree(tx, op, t.Hash); err != nil {
			return err
		}
		now := s.b.Now()
		if err := invalidatePrevious(tx, t.NodeID, t.Hash, now); err != nil {
			return err
		}
		t.CreatedAt, t.UsedAt = now, nil
		return tx.SaveEnrollToken(t, true, true)
	})
}

func tokenFree(tx Enrollment, op, hash string) error {
	ok, err := tx.EnrollTokenExists(hash)
	if err == nil && ok {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token already exists")
	}
	return err
}

// invalidatePrevious supersedes the node's previous unused token by the
// one hashed by hash (rules.Supersede), so only the newest token works.
func invalidatePrevious(tx Enrollment, nodeID, hash string, now time.Time) error {
	old, ok, err := tx.NewestEnrollToken(nodeID)
	if err != nil || !ok {
		return err
	}
	if old, ok = rules.Supersede(old, hash, now); !ok {
		return nil
	}
	return tx.SaveEnrollToken(old, false, false)
}

// TouchNodeContact implements lifecycle.EnrollmentStore.
func (s Store) TouchNodeContact(ctx context.Context, nodeID string) error {
	const op = "store.TouchNodeContact"
	return s.b.Update(ctx, op, func(tx Tx) error {
		n, err := LoadNode(tx, op, nodeID)
		if err != nil {
			return err
		}
		now, old := s.b.Now(), n
		n.LastContactAt = &now
		return tx.SaveNode(&old, n)
	})
}
