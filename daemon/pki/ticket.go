package pki

import (
	"context"
	"encoding/base64"
	"io"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// IssueBootstrapTicket makes a one-time bootstrap ticket for nodeID, the
// secret in the URL a manual host fetches its bootstrap script from,
// valid for ttl. The store keeps only its hash (which supersedes the
// node's earlier unused ticket or token); the plaintext is returned once.
// Errors: invalid for a ttl that is not positive; the store's otherwise
// (not_found for an unknown node).
func (p *PKI) IssueBootstrapTicket(ctx context.Context, st lifecycle.EnrollmentStore, nodeID string, ttl time.Duration) (string, time.Time, error) {
	const op = "pki.IssueBootstrapTicket"
	if ttl <= 0 {
		return "", time.Time{}, lifecycle.Invalid(op, "ttl", "a bootstrap ticket needs a positive lifetime")
	}
	raw := make([]byte, tokenBytes)
	if _, err := io.ReadFull(p.opts.Rand, raw); err != nil {
		return "", time.Time{}, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	ticket := base64.RawURLEncoding.EncodeToString(raw)
	exp := p.opts.Now().Add(ttl)
	rec := lifecycle.EnrollmentToken{Hash: HashToken(ticket), NodeID: nodeID, ExpiresAt: exp, Purpose: lifecycle.TokenBootstrap}
	if err := st.CreateEnrollmentToken(ctx, rec); err != nil {
		return "", time.Time{}, err
	}
	return ticket, exp, nil
}
