package agent

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// successorBytes is the entropy of a token the agent makes (as the daemon's).
const successorBytes = 32

// tokenExpired: the daemon refused the enrollment because the token
// expired unspent; it may be renewed.
func tokenExpired(err error) bool { return problemCode(err) == wire.ProblemTokenExpired }

// renewalNotGranted: the daemon has not granted the renewal (yet).
func renewalNotGranted(err error) bool { return problemCode(err) == wire.ProblemRenewalNotGranted }

func problemCode(err error) string {
	var p *wire.Problem
	if errors.As(err, &p) {
		return p.Code
	}
	return ""
}

// renewToken asks the daemon to replace the expired token tok with a
// successor made here, whose hash alone is sent (seed 001 §4.6: the
// onboarding regenerates an expired token once and waits again). The
// successor is saved before it is sent, so a retry after a lost answer
// sends the same one; once the daemon took it, it replaces tok in the
// token file (0600) and the next step enrolls with it. Until the daemon
// grants the renewal, tok is kept and asked about again with backoff
// (logged once); a renewal refused for good marks tok refused.
func (a *Agent) renewToken(ctx context.Context, tok string) error {
	next, err := a.successor(tok)
	if err != nil {
		return err
	}
	resp, err := a.o.Transport.RenewToken(ctx, wire.TokenRenewRequest{NodeID: a.o.Config.NodeID, Token: tok,
		NextTokenHash: wire.TokenHash(next)})
	switch {
	case renewalNotGranted(err):
		return a.awaitGrant(err)
	case permanentRefusal(err):
		return a.tokenRefused(tok, err)
	case err != nil:
		return fmt.Errorf("renew the enrollment token: %w", err)
	}
	if err := atomicfile.Write(a.tokenPath(), []byte(next+"\n"), 0o600); err != nil {
		return fmt.Errorf("renew the enrollment token: %w", err)
	}
	if err := a.o.State.DropPendingSuccessor(); err != nil {
		a.log.Warn("could not remove the pending token successor", "err", err)
	}
	a.refusal = ""
	a.log.Info("the daemon renewed the expired enrollment token; enrolling with its successor",
		"expires_at", resp.ExpiresAt, "token_path", a.o.Config.EnrollmentTokenPath)
	return nil
}

// successor returns the token saved to replace tok, or makes and saves one.
func (a *Agent) successor(tok string) (string, error) {
	digest := []byte(tokenDigest(tok))
	next, err := a.o.State.PendingSuccessor(digest)
	if err != nil || next != "" {
		return next, err
	}
	raw := make([]byte, successorBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("renew the enrollment token: %w", err)
	}
	next = base64.RawURLEncoding.EncodeToString(raw)
	return next, a.o.State.SavePendingSuccessor(digest, next)
}

// awaitGrant reports, once per wait, that the expired token waits for the
// daemon to grant its renewal.
func (a *Agent) awaitGrant(err error) error {
	if key := err.Error(); a.refusal != key {
		a.refusal = key
		a.log.Warn("the enrollment token expired; asking the daemon to renew it until its onboarding grants that",
			"err", err, "token_path", a.o.Config.EnrollmentTokenPath)
	}
	return loggedError{fmt.Errorf("renew the enrollment token: %w", err)}
}
