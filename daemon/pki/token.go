package pki

import (
	"context"
	"encoding/base64"
	"io"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tokenBytes is the entropy of an enrollment token.
const tokenBytes = 32

// HashToken returns the stored form of an enrollment token: hex SHA-256,
// the same digest the agent sends for a renewal's successor.
func HashToken(token string) string { return wire.TokenHash(token) }

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
	ttl := time.Duration(pol.EnrollmentTokenTTLSeconds) * time.Second
	return p.issue(ctx, st, op, lifecycle.EnrollmentToken{NodeID: nodeID, Purpose: lifecycle.TokenEnroll}, ttl)
}

// issue makes a one-time secret of rec's node and purpose valid for ttl,
// stores rec with only its hash and returns the plaintext, once.
func (p *PKI) issue(ctx context.Context, st lifecycle.EnrollmentStore, op string, rec lifecycle.EnrollmentToken,
	ttl time.Duration) (string, time.Time, error) {
	raw := make([]byte, tokenBytes)
	if _, err := io.ReadFull(p.opts.Rand, raw); err != nil {
		return "", time.Time{}, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	rec.Hash, rec.ExpiresAt = HashToken(secret), p.opts.Clock.Now().Add(ttl)
	if err := st.CreateEnrollmentToken(ctx, rec); err != nil {
		return "", time.Time{}, err
	}
	return secret, rec.ExpiresAt, nil
}
