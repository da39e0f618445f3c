package op

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// createSubmission writes the submission's runs and its batch.
func (s Store) createSubmission(tx Tx, op string, sub lifecycle.Submission) (lifecycle.SubmissionResult, error) {
	var res lifecycle.SubmissionResult
	now := s.b.Now()
	for _, r := range sub.Runs {
		if err := runFree(tx, op, r); err != nil {
			return res, err
		}
		r.RequestedAt, r.UpdatedAt = now, now
		if sub.Batch != nil {
			r.BatchID = sub.Batch.ID
		}
		if err := tx.SaveRun(r, true); err != nil {
			return res, err
		}
		res.RunIDs = append(res.RunIDs, r.ID)
	}
	if sub.Batch == nil {
		return res, nil
	}
	b := *sub.Batch
	if ok, err := tx.BatchExists(b.ID); err != nil || ok || b.ID == "" {
		if err == nil {
			err = lifecycle.Errorf(lifecycle.CodeConflict, op, "batch %q is empty or exists", b.ID)
		}
		return res, err
	}
	b.RunIDs, b.RequestedAt = res.RunIDs, now
	res.BatchID = b.ID
	return res, tx.InsertBatch(b)
}

// runFree fails unless r's site exists and no run has r's id.
func runFree(tx Tx, op string, r lifecycle.Run) error {
	if _, err := LoadSite(tx, op, r.SiteID); err != nil {
		return err
	}
	ok, err := tx.RunExists(r.ID)
	if err == nil && ok {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
	}
	return err
}
