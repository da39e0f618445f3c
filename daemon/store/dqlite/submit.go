//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Submit implements lifecycle.SiteConfigStore: the runs, the batch and the
// idempotency record in one transaction.
func (s *Store) Submit(ctx context.Context, sub lifecycle.Submission) (res lifecycle.SubmissionResult, err error) {
	const op = "store.Submit"
	if err := rules.ValidateSubmission(op, sub); err != nil {
		return res, err
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		res = lifecycle.SubmissionResult{}
		if sub.IdempotencyKey != "" {
			var hash, data string
			err := tx.QueryRow(`SELECT request_hash, data FROM submissions WHERE idem_key = ?`, sub.IdempotencyKey).Scan(&hash, &data)
			switch {
			case err == nil && hash != sub.RequestHash:
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "idempotency key was used for a different request")
			case err == nil:
				res.Replayed = true
				return decode(data, &res)
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
		}
		res, err = s.createSubmission(tx, op, sub)
		if err != nil || sub.IdempotencyKey == "" {
			return err
		}
		data, err := js(res)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO submissions (idem_key, request_hash, data) VALUES (?, ?, ?)`,
			sub.IdempotencyKey, sub.RequestHash, data)
		return err
	})
	if err != nil {
		return lifecycle.SubmissionResult{}, err
	}
	return res, nil
}

func (s *Store) createSubmission(tx *sql.Tx, op string, sub lifecycle.Submission) (lifecycle.SubmissionResult, error) {
	var res lifecycle.SubmissionResult
	now := s.now()
	for _, r := range sub.Runs {
		if _, err := loadSite(tx, op, r.SiteID); err != nil {
			return res, err
		}
		if ok, err := exists(tx, `SELECT 1 FROM runs WHERE id = ?`, r.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
			}
			return res, err
		}
		r.RequestedAt, r.UpdatedAt = now, now
		if sub.Batch != nil {
			r.BatchID = sub.Batch.ID
		}
		if err := saveRun(tx, r, true); err != nil {
			return res, err
		}
		res.RunIDs = append(res.RunIDs, r.ID)
	}
	b := sub.Batch
	if b == nil {
		return res, nil
	}
	if ok, err := exists(tx, `SELECT 1 FROM batches WHERE id = ?`, b.ID); err != nil || ok || b.ID == "" {
		if err == nil {
			err = lifecycle.Errorf(lifecycle.CodeConflict, op, "batch %q is empty or exists", b.ID)
		}
		return res, err
	}
	bb := *b
	bb.RunIDs, bb.RequestedAt = res.RunIDs, now
	res.BatchID = bb.ID
	data, err := js(bb)
	if err != nil {
		return res, err
	}
	_, err = tx.Exec(`INSERT INTO batches (id, site_id, data) VALUES (?, ?, ?)`, bb.ID, bb.SiteID, data)
	return res, err
}

// GetBatch implements lifecycle.SiteConfigStore.
func (s *Store) GetBatch(ctx context.Context, id string) (b lifecycle.Batch, err error) {
	const op = "store.GetBatch"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &b, `SELECT data FROM batches WHERE id = ?`, id)
		if err == nil && !ok {
			err = notFound(op, "batch", id)
		}
		return err
	})
	return b, err
}
