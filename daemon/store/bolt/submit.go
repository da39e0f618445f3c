package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

type idemRecord struct {
	Hash   string                     `json:"hash"`
	Result lifecycle.SubmissionResult `json:"result"`
}

// Submit implements lifecycle.SiteConfigStore.
func (s *Store) Submit(ctx context.Context, sub lifecycle.Submission) (res lifecycle.SubmissionResult, err error) {
	const op = "store.Submit"
	if err := rules.ValidateSubmission(op, sub); err != nil {
		return res, err
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		if sub.IdempotencyKey != "" {
			var rec idemRecord
			ok, err := get(tx.Bucket(bIdem), sub.IdempotencyKey, &rec)
			if err != nil {
				return err
			}
			if ok && rec.Hash != sub.RequestHash {
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "idempotency key was used for a different request")
			}
			if ok {
				res, res.Replayed = rec.Result, true
				return nil
			}
		}
		res, err = s.createSubmission(tx, op, sub)
		if err != nil || sub.IdempotencyKey == "" {
			return err
		}
		return put(tx.Bucket(bIdem), []byte(sub.IdempotencyKey), idemRecord{Hash: sub.RequestHash, Result: res})
	})
	if err != nil {
		return lifecycle.SubmissionResult{}, err
	}
	return res, nil
}

func (s *Store) createSubmission(tx *bbolt.Tx, op string, sub lifecycle.Submission) (lifecycle.SubmissionResult, error) {
	var res lifecycle.SubmissionResult
	now := s.now()
	for _, r := range sub.Runs {
		if _, err := loadSite(tx, op, r.SiteID); err != nil {
			return res, err
		}
		if tx.Bucket(bRuns).Get([]byte(r.ID)) != nil {
			return res, lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
		}
		r.RequestedAt, r.UpdatedAt = now, now
		if sub.Batch != nil {
			r.BatchID = sub.Batch.ID
		}
		if _, err := tx.Bucket(bEvents).CreateBucket([]byte(r.ID)); err != nil {
			return res, err
		}
		if err := putRun(tx, r); err != nil {
			return res, err
		}
		res.RunIDs = append(res.RunIDs, r.ID)
	}
	if b := sub.Batch; b != nil {
		if b.ID == "" || tx.Bucket(bBatches).Get([]byte(b.ID)) != nil {
			return res, lifecycle.Errorf(lifecycle.CodeConflict, op, "batch %q is empty or exists", b.ID)
		}
		b.RunIDs, b.RequestedAt = res.RunIDs, now
		res.BatchID = b.ID
		if err := put(tx.Bucket(bBatches), []byte(b.ID), b); err != nil {
			return res, err
		}
	}
	return res, nil
}

// GetBatch implements lifecycle.SiteConfigStore.
func (s *Store) GetBatch(ctx context.Context, id string) (b lifecycle.Batch, err error) {
	const op = "store.GetBatch"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := get(tx.Bucket(bBatches), id, &b)
		if err == nil && !ok {
			err = notFound(op, "batch", id)
		}
		return err
	})
	return b, err
}
