package admintoken

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// finish revokes every active bootstrap token but r.TokenID, so at most one
// bootstrap token is ever valid: the one in the file.
func finish(ctx context.Context, st lifecycle.TokenStore, o Options, r Result) (Result, error) {
	active, err := activeBootstrap(ctx, st, o.Name)
	if err != nil {
		return Result{}, err
	}
	for _, t := range active {
		if t.ID == r.TokenID {
			continue
		}
		if _, err := st.RevokeAdminToken(ctx, t.ID); err != nil {
			return Result{}, fmt.Errorf("admintoken: revoke %s: %w", t.ID, err)
		}
		r.Revoked = append(r.Revoked, t.ID)
	}
	o.Logger.Info("admin token ready", "path", r.Path, "token_id", r.TokenID,
		"outcome", string(r.Outcome), "revoked", len(r.Revoked))
	return r, nil
}

func activeBootstrap(ctx context.Context, st lifecycle.TokenStore, name string) ([]lifecycle.AdminToken, error) {
	all, err := st.ListAdminTokens(ctx)
	if err != nil {
		return nil, fmt.Errorf("admintoken: list tokens: %w", err)
	}
	var out []lifecycle.AdminToken
	for _, t := range all {
		if t.Name == name && t.Role == lifecycle.RoleAdmin && t.RevokedAt == nil {
			out = append(out, t)
		}
	}
	return out, nil
}

func (o Options) withDefaults() Options {
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Name == "" {
		o.Name = Name
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
