package secrets

import (
	"net/url"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// VaultConfig says how to reach and log in to Vault. Exactly one login is
// configured: a token file, or an AppRole role id and secret id in files.
// Files are read at each login, so an agent may rotate them in place.
type VaultConfig struct {
	Address      string        // "https://vault.example:8200"
	Namespace    string        // optional (Vault Enterprise)
	CACertFile   string        // optional PEM bundle that signs Vault's certificate
	TokenFile    string        // token auth
	RoleIDFile   string        // AppRole auth
	SecretIDFile string        // AppRole auth
	AppRoleMount string        // default "approle"
	Timeout      time.Duration // per request; default 10 s
	RetryAfter   time.Duration // renewal loop's wait after a failure; default 5 s
}

// Defaults returns c with every zero field set to its default.
func (c VaultConfig) Defaults() VaultConfig {
	if c.AppRoleMount == "" {
		c.AppRoleMount = "approle"
	}
	if c.Timeout == 0 {
		c.Timeout = 10 * time.Second
	}
	if c.RetryAfter == 0 {
		c.RetryAfter = 5 * time.Second
	}
	return c
}

// Validate reports the first bad field as a CodeInvalid error.
func (c VaultConfig) Validate() error {
	const op = "secrets.VaultConfig"
	u, err := url.Parse(c.Address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return lifecycle.Invalid(op, "vault.address", "want an http or https URL, got %q", c.Address)
	}
	approle := c.RoleIDFile != "" || c.SecretIDFile != ""
	switch {
	case c.TokenFile == "" && !approle:
		return lifecycle.Invalid(op, "vault.token_file", "configure a token file or an AppRole")
	case c.TokenFile != "" && approle:
		return lifecycle.Invalid(op, "vault.token_file", "configure a token file or an AppRole, not both")
	case approle && (c.RoleIDFile == "" || c.SecretIDFile == ""):
		return lifecycle.Invalid(op, "vault.role_id_file", "AppRole needs both a role id file and a secret id file")
	case c.Timeout <= 0 || c.RetryAfter <= 0:
		return lifecycle.Invalid(op, "vault.timeout", "timeouts must be positive")
	}
	return nil
}
