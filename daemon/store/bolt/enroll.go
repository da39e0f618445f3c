package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadEnrollToken implements op.Enrollment.
func (t txn) LoadEnrollToken(hash string) (lifecycle.EnrollmentToken, bool, error) {
	var tok lifecycle.EnrollmentToken
	ok, err := get(t.Bucket(bEnroll), hash, &tok)
	return tok, ok, err
}

// EnrollTokenExists implements op.Enrollment.
func (t txn) EnrollTokenExists(hash string) (bool, error) {
	return t.Bucket(bEnroll).Get([]byte(hash)) != nil, nil
}

// NewestEnrollToken implements op.Enrollment through the node index.
func (t txn) NewestEnrollToken(nodeID string) (lifecycle.EnrollmentToken, bool, error) {
	h := t.Bucket(bEnrollNode).Get([]byte(nodeID))
	if h == nil {
		return lifecycle.EnrollmentToken{}, false, nil
	}
	return t.LoadEnrollToken(string(h))
}

// NewestEnrollHash implements op.Enrollment.
func (t txn) NewestEnrollHash(nodeID string) (string, error) {
	return string(t.Bucket(bEnrollNode).Get([]byte(nodeID))), nil
}

// SaveEnrollToken implements op.Enrollment.
func (t txn) SaveEnrollToken(tok lifecycle.EnrollmentToken, _, newest bool) error {
	if newest {
		if err := t.Bucket(bEnrollNode).Put([]byte(tok.NodeID), []byte(tok.Hash)); err != nil {
			return err
		}
	}
	return put(t.Bucket(bEnroll), []byte(tok.Hash), tok)
}
