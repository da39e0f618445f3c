package bolt

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

type idemRecord struct {
	Hash   string                     `json:"hash"`
	Result lifecycle.SubmissionResult `json:"result"`
}

// LoadSubmission implements op.Submissions.
func (t txn) LoadSubmission(key string) (string, lifecycle.SubmissionResult, bool, error) {
	var rec idemRecord
	ok, err := get(t.Bucket(bIdem), key, &rec)
	return rec.Hash, rec.Result, ok, err
}

// SaveSubmission implements op.Submissions.
func (t txn) SaveSubmission(key, hash string, res lifecycle.SubmissionResult) error {
	return put(t.Bucket(bIdem), []byte(key), idemRecord{Hash: hash, Result: res})
}

// LoadBatch implements op.Submissions.
func (t txn) LoadBatch(id string) (lifecycle.Batch, bool, error) {
	var b lifecycle.Batch
	ok, err := get(t.Bucket(bBatches), id, &b)
	return b, ok, err
}

// BatchExists implements op.Submissions.
func (t txn) BatchExists(id string) (bool, error) {
	return t.Bucket(bBatches).Get([]byte(id)) != nil, nil
}

// InsertBatch implements op.Submissions.
func (t txn) InsertBatch(b lifecycle.Batch) error { return put(t.Bucket(bBatches), []byte(b.ID), b) }
