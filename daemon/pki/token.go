package pki

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tokenBytes is the entropy of an enrollment token.
const tokenBytes = 32

// HashToken returns the stored form of an enrollment token: hex SHA-256.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// HashToken is HashToken as a method, for the agent API's interface.
func (p *PKI) HashToken(token string) string { return HashToken(token) }

// IssueEnrollmentToken makes a one-time token for nodeID valid for the
// site policy's enrollment_token_ttl_seconds, stores only its hash (which
// invalidates the node's earlier unused token) and returns the plaintext,
// once, for cloud-init. Errors come from the store (not_found for an
// unknown node) or invalid for a policy without a TTL.
func (p *PKI) IssueEnrollmentToken(ctx context.Context, st lifecycle.EnrollmentStore, pol lifecycle.SitePolicy, nodeID string) (string, time.Time, error) {
	const op = "pki.IssueEnrollmentToken"
	if pol.EnrollmentTokenTTLSeconds <= 0 {
		return "", time.Time{}, lifecycle.Invalid(op, "enrollment_token_ttl_seconds", "site policy has no enrollment token TTL")
	}
	raw := make([]byte, tokenBytes)
	if _, err := io.ReadFull(p.opts.Rand, raw); err != nil {
		return "", time.Time{}, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	exp := p.opts.Now().Add(time.Duration(pol.EnrollmentTokenTTLSeconds) * time.Second)
	rec := lifecycle.EnrollmentToken{Hash: HashToken(token), NodeID: nodeID, ExpiresAt: exp}
	if err := st.CreateEnrollmentToken(ctx, rec); err != nil {
		return "", time.Time{}, err
	}
	return token, exp, nil
}
