package secrets

import (
	"context"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ensureLogin logs in unless the client holds a token.
func (v *Vault) ensureLogin(ctx context.Context) error {
	if v.client.Token() != "" {
		return nil
	}
	v.loginMu.Lock()
	defer v.loginMu.Unlock()
	if v.client.Token() != "" {
		return nil
	}
	return v.login(ctx)
}

// relogin logs in again if Vault no longer accepts the current token (not
// when the token is valid but lacks a policy: that would burn AppRole
// secret-id uses for nothing). It reports whether the token changed.
func (v *Vault) relogin(ctx context.Context) bool {
	v.loginMu.Lock()
	defer v.loginMu.Unlock()
	old := v.client.Token()
	if _, err := v.client.Auth().Token().LookupSelfWithContext(ctx); err == nil {
		return false
	}
	return v.login(ctx) == nil && v.client.Token() != old
}

// login reads the token file, or logs in with AppRole. The caller holds
// loginMu.
func (v *Vault) login(ctx context.Context) error {
	err := v.doLogin(ctx)
	v.metrics.done("login", err)
	return err
}

func (v *Vault) doLogin(ctx context.Context) error {
	const op = "secrets.login"
	if v.cfg.TokenFile != "" {
		tok, err := readCredentialFile(op, v.cfg.TokenFile)
		if err == nil {
			v.client.SetToken(tok)
		}
		return err
	}
	roleID, err := readCredentialFile(op, v.cfg.RoleIDFile)
	if err != nil {
		return err
	}
	secretID, err := readCredentialFile(op, v.cfg.SecretIDFile)
	if err != nil {
		return err
	}
	path := "auth/" + v.cfg.AppRoleMount + "/login"
	s, err := v.client.Logical().WriteWithContext(ctx, path, map[string]any{"role_id": roleID, "secret_id": secretID})
	if err != nil {
		e := kvErr("login", path, err).(*lifecycle.Error)
		if e.Code == lifecycle.CodeInvalid || e.Code == lifecycle.CodeForbidden {
			e.Code = lifecycle.CodeUnauthorized // Vault answers 400 to a bad secret id
		}
		return e
	}
	if s == nil || s.Auth == nil || s.Auth.ClientToken == "" {
		return lifecycle.Errorf(lifecycle.CodeInternal, op, "AppRole login at %s returned no token", path)
	}
	v.client.SetToken(s.Auth.ClientToken)
	return nil
}

// readCredentialFile reads a token or id file. Errors name the file, never
// its content.
func readCredentialFile(op, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", lifecycle.Wrap(lifecycle.CodeUnauthorized, op, err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "credential file %s is empty", path)
	}
	return s, nil
}
