package secrets

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/hashicorp/vault/api"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// VaultOptions are the injected dependencies of Vault. Nil fields get a
// discarding logger, the wall clock and no metrics.
type VaultOptions struct {
	Log     *slog.Logger
	Clock   clockwork.Clock // times the renewal loop
	Metrics *Metrics
}

// Vault is the KV version 2 backend. It logs in lazily on first use and
// again whenever Vault refuses its token; Run keeps the token renewed.
type Vault struct {
	client  *api.Client
	cfg     VaultConfig
	log     *slog.Logger
	clock   clockwork.Clock
	metrics *Metrics
	loginMu sync.Mutex
}

// NewVault builds the client without contacting Vault. cfg, not the VAULT_*
// environment, sets the address, the token and the namespace.
func NewVault(cfg VaultConfig, o VaultOptions) (*Vault, error) {
	const op = "secrets.NewVault"
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ac := &api.Config{Address: cfg.Address, Timeout: cfg.Timeout, MaxRetries: 0}
	if err := ac.ConfigureTLS(&api.TLSConfig{CACert: cfg.CACertFile}); err != nil {
		return nil, lifecycle.Invalid(op, "vault.ca_cert_file", "cannot use the CA file: %v", err)
	}
	client, err := api.NewClient(ac)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	client.ClearToken()
	client.SetNamespace(cfg.Namespace)
	v := &Vault{client: client, cfg: cfg, log: o.Log, clock: o.Clock, metrics: o.Metrics}
	if v.log == nil {
		v.log = slog.New(slog.DiscardHandler)
	}
	if v.clock == nil {
		v.clock = clockwork.NewRealClock()
	}
	return v, nil
}

// Read returns the latest version of the secret at path.
func (v *Vault) Read(ctx context.Context, path string) (map[string]string, error) {
	var out map[string]string
	err := v.call(ctx, "read", path, func(ctx context.Context, mount, rest string) error {
		s, err := v.client.KVv2(mount).Get(ctx, rest)
		if err != nil {
			return err
		}
		out, err = stringFields(s.Data)
		return err
	})
	return out, err
}

// Write stores data as a new version of the secret at path.
func (v *Vault) Write(ctx context.Context, path string, data map[string]string) error {
	return v.call(ctx, "write", path, func(ctx context.Context, mount, rest string) error {
		in := make(map[string]any, len(data))
		for k, val := range data {
			in[k] = val
		}
		_, err := v.client.KVv2(mount).Put(ctx, rest, in)
		return err
	})
}

// call logs in if needed, runs fn, and runs it once more after a fresh
// login when Vault refused a token that the login then replaced.
func (v *Vault) call(ctx context.Context, op, path string, fn func(ctx context.Context, mount, rest string) error) error {
	mount, rest, err := splitPath("secrets."+op, path)
	if err != nil {
		return err
	}
	err = v.ensureLogin(ctx)
	if err == nil {
		err = kvErr(op, path, fn(ctx, mount, rest))
		if code := lifecycle.ErrorCode(err); code == lifecycle.CodeForbidden && v.relogin(ctx) {
			err = kvErr(op, path, fn(ctx, mount, rest))
		}
	}
	v.metrics.done(op, err)
	return err
}

func stringFields(data map[string]any) (map[string]string, error) {
	out := make(map[string]string, len(data))
	for k, val := range data {
		s, ok := val.(string)
		if !ok {
			return nil, fmt.Errorf("field %q is a %T, not a string", k, val)
		}
		out[k] = s
	}
	return out, nil
}
