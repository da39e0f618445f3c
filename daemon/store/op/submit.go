package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Submissions are the batches and the idempotency records of submissions.
type Submissions interface {
	// LoadSubmission returns the request hash and result recorded under
	// the idempotency key; false when there are none.
	LoadSubmission(key string) (string, lifecycle.SubmissionResult, bool, error)
	// SaveSubmission records a submission's request hash and result
	// under its idempotency key.
	SaveSubmission(key, hash string, res lifecycle.SubmissionResult) error
	// LoadBatch returns the batch; false when there is none.
	LoadBatch(id string) (lifecycle.Batch, bool, error)
	// BatchExists says whether a batch has the id.
	BatchExists(id string) (bool, error)
	// InsertBatch writes a new batch.
	InsertBatch(b lifecycle.Batch) error
}

// Submit implements lifecycle.SiteConfigStore: the runs, the batch and the
// idempotency record in one transaction.
func (s Store) Submit(ctx context.Context, sub lifecycle.Submission) (res lifecycle.SubmissionResult, err error) {
	const op = "store.Submit"
	if err := rules.ValidateSubmission(op, sub); err != nil {
		return res, err
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		if sub.IdempotencyKey != "" {
			hash, rec, ok, err := tx.LoadSubmission(sub.IdempotencyKey)
			switch {
			case err != nil:
				return err
			case ok && hash != sub.RequestHash:
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "idempotency key was used for a different request")
			case ok:
				res, res.Replayed = rec, true
				return nil
			}
		}
		res, err = s.createSubmission(tx, op, sub)
		if err != nil || sub.IdempotencyKey == "" {
			return err
		}
		return tx.SaveSubmission(sub.IdempotencyKey, sub.RequestHash, res)
	})
	if err != nil {
		return lifecycle.SubmissionResult{}, err
	}
	return res, nil
}

// GetBatch implements lifecycle.SiteConfigStore.
func (s Store) GetBatch(ctx context.Context, id string) (b lifecycle.Batch, err error) {
	const op = "store.GetBatch"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		b, ok, err = tx.LoadBatch(id)
		if err == nil && !ok {
			err = notFound(op, "batch", id)
		}
		return err
	})
	return b, err
}
