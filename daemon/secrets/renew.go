package secrets

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// idleCheck is how often Run looks at a token that never expires.
const idleCheck = time.Hour

// Run keeps the token alive until ctx ends: it renews a renewable token at
// half its TTL, and logs in again when the token can no longer be renewed
// above half its original TTL (its max TTL is near) or Vault refuses
// it. Failures are logged and tried again after RetryAfter.
func (v *Vault) Run(ctx context.Context) error {
	for {
		wait := v.maintain(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-v.clock.After(wait):
		}
	}
}

// maintain runs one renewal round and returns when to run the next.
func (v *Vault) maintain(ctx context.Context) time.Duration {
	err := v.ensureLogin(ctx)
	var t tokenTTL
	if err == nil {
		t, err = v.renew(ctx)
		v.metrics.done("renew", err)
	}
	if needsLogin(t, err) {
		v.log.InfoContext(ctx, "logging in to vault again", "err", err)
		v.loginMu.Lock()
		err = v.login(ctx)
		v.loginMu.Unlock()
		if err == nil {
			t, err = v.lookup(ctx)
		}
	}
	v.log.DebugContext(ctx, "vault token", "ttl", t.ttl, "creation_ttl", t.creation, "renewable", t.renewable, "err", err)
	switch {
	case err != nil:
		v.log.WarnContext(ctx, "vault token maintenance failed", "err", err)
		return v.cfg.RetryAfter
	case !t.expires:
		return idleCheck
	}
	return max(t.ttl/2, time.Second)
}

// needsLogin: Vault refused the token, or renewal can no longer bring it
// back above half its original TTL.
func needsLogin(t tokenTTL, err error) bool {
	if err != nil {
		return !lifecycle.IsRetryable(err)
	}
	return t.expires && t.ttl*2 <= t.creation
}

type tokenTTL struct {
	expires   bool
	ttl       time.Duration // left now
	creation  time.Duration // at creation
	renewable bool
}

// renew renews the token when it is renewable and returns its TTL.
func (v *Vault) renew(ctx context.Context) (tokenTTL, error) {
	t, err := v.lookup(ctx)
	if err != nil || !t.expires || !t.renewable {
		return t, err
	}
	s, err := v.client.Auth().Token().RenewSelfWithContext(ctx, 0)
	if err != nil {
		return t, kvErr("renew", "auth/token/renew-self", err)
	}
	if s.Auth != nil {
		t.ttl = time.Duration(s.Auth.LeaseDuration) * time.Second
	}
	return t, nil
}

func (v *Vault) lookup(ctx context.Context) (tokenTTL, error) {
	s, err := v.client.Auth().Token().LookupSelfWithContext(ctx)
	if err != nil {
		return tokenTTL{}, kvErr("renew", "auth/token/lookup-self", err)
	}
	ttl, _ := s.TokenTTL()
	renewable, _ := s.TokenIsRenewable()
	var creation time.Duration
	if n, ok := s.Data["creation_ttl"].(json.Number); ok {
		secs, _ := n.Int64()
		creation = time.Duration(secs) * time.Second
	}
	// Vault rounds the TTL left down to whole seconds, so a token about to
	// expire shows 0, like a token that never expires; creation_ttl tells.
	return tokenTTL{expires: ttl > 0 || creation > 0, ttl: ttl, creation: creation, renewable: renewable}, nil
}
