package admintoken

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// Options configure Ensure. Dir (the state directory) is required; nil
// Rand, Clock and Logger mean crypto/rand, the real clock and a discarding
// logger.
type Options struct {
	Dir string
	// Name is the store name of the token Ensure manages (Name). Daemons
	// sharing one store each need their own (BootstrapName), or each
	// start would revoke the others' tokens.
	Name   string
	Rand   io.Reader
	Clock  clockwork.Clock
	Logger *slog.Logger
}

// Outcome says what Ensure did.
type Outcome string

// Outcomes of Ensure.
const (
	Created    Outcome = "created"    // first start: new file, new token
	Kept       Outcome = "kept"       // file and stored token already agree
	Registered Outcome = "registered" // the file's token was added to the store
	Rotated    Outcome = "rotated"    // a new token replaced a missing or revoked one
)

// Result describes the bootstrap token after Ensure.
type Result struct {
	Path    string
	TokenID string
	Outcome Outcome
	Revoked []string // ids of earlier bootstrap tokens revoked now
}

// Ensure makes <Dir>/admin.token and the store agree on one active
// bootstrap admin token, as the package comment describes. Store errors
// keep their lifecycle code.
func Ensure(ctx context.Context, st lifecycle.TokenStore, o Options) (Result, error) {
	o = o.withDefaults()
	if o.Dir == "" {
		return Result{}, lifecycle.Invalid("admintoken.Ensure", "dir", "state directory must not be empty")
	}
	path := filepath.Join(o.Dir, FileName)
	token, fixedMode, err := readFile(path)
	if err != nil {
		return Result{}, fmt.Errorf("admintoken: %w", err)
	}
	if fixedMode {
		o.Logger.Warn("admin token file was readable by others; mode set to 0600", "path", path)
	}
	if token == "" {
		return issue(ctx, st, o, path, false)
	}
	t, err := st.AdminTokenByHash(ctx, Hash(token))
	switch {
	case err == nil && t.RevokedAt == nil:
		return finish(ctx, st, o, Result{Path: path, TokenID: t.ID, Outcome: Kept})
	case err == nil: // the file holds a revoked token
		return issue(ctx, st, o, path, true)
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return register(ctx, st, o, Result{Path: path, Outcome: Registered}, token)
	default:
		return Result{}, fmt.Errorf("admintoken: look up %s: %w", path, err)
	}
}

// issue writes a new token to the file, then registers it: a crash in
// between leaves a file that the next start registers.
func issue(ctx context.Context, st lifecycle.TokenStore, o Options, path string, replacing bool) (Result, error) {
	token, err := generate(o.Rand)
	if err != nil {
		return Result{}, fmt.Errorf("admintoken: %w", err)
	}
	if err := writeFile(path, token); err != nil {
		return Result{}, fmt.Errorf("admintoken: write %s: %w", path, err)
	}
	active, err := activeBootstrap(ctx, st, o.Name)
	if err != nil {
		return Result{}, err
	}
	r := Result{Path: path, Outcome: Created}
	if replacing || len(active) > 0 {
		r.Outcome = Rotated
	}
	return register(ctx, st, o, r, token)
}

func register(ctx context.Context, st lifecycle.TokenStore, o Options, r Result, token string) (Result, error) {
	id, err := lifecycle.NewID(o.Rand)
	if err != nil {
		return Result{}, fmt.Errorf("admintoken: %w", err)
	}
	t := lifecycle.AdminToken{ID: id, Name: o.Name, Role: lifecycle.RoleAdmin, Hash: Hash(token), CreatedAt: o.Clock.Now().UTC()}
	if err := st.CreateAdminToken(ctx, t); err != nil {
		return Result{}, fmt.Errorf("admintoken: register: %w", err)
	}
	r.TokenID = id
	return finish(ctx, st, o, r)
}
