package secrets

import (
	"errors"
	"fmt"
	"net/url"
	"testing"

	"github.com/hashicorp/vault/api"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestVaultConfigValidate(t *testing.T) {
	base := VaultConfig{Address: "https://vault:8200", TokenFile: "/run/token"}
	tests := []struct {
		name      string
		edit      func(*VaultConfig)
		wantField string
	}{
		{"token file", func(*VaultConfig) {}, ""},
		{"approle", func(c *VaultConfig) { c.TokenFile, c.RoleIDFile, c.SecretIDFile = "", "/r", "/s" }, ""},
		{"no scheme", func(c *VaultConfig) { c.Address = "vault:8200" }, "vault.address"},
		{"no login", func(c *VaultConfig) { c.TokenFile = "" }, "vault.token_file"},
		{"two logins", func(c *VaultConfig) { c.RoleIDFile, c.SecretIDFile = "/r", "/s" }, "vault.token_file"},
		{"half an approle", func(c *VaultConfig) { c.TokenFile, c.RoleIDFile = "", "/r" }, "vault.role_id_file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.edit(&c)
			err := c.Defaults().Validate()
			if lifecycle.ErrorField(err) != tt.wantField || (tt.wantField == "") != (err == nil) {
				t.Fatalf("Validate = %v, want field %q", err, tt.wantField)
			}
		})
	}
}

func TestClassifyVault(t *testing.T) {
	resp := func(code int, msg string) error { return &api.ResponseError{StatusCode: code, Errors: []string{msg}} }
	tests := []struct {
		err  error
		want lifecycle.Code
	}{
		{resp(403, "permission denied"), lifecycle.CodeForbidden},
		{resp(404, ""), lifecycle.CodeNotFound},
		{fmt.Errorf("%w: at kv/x", api.ErrSecretNotFound), lifecycle.CodeNotFound},
		{resp(503, "Vault is sealed"), lifecycle.CodeUnavailable},
		{resp(429, "rate limited"), lifecycle.CodeUnavailable},
		{resp(400, "bad"), lifecycle.CodeInvalid},
		{&url.Error{Op: "Get", URL: "http://v", Err: errors.New("connection refused")}, lifecycle.CodeUnavailable},
		{errors.New("odd"), lifecycle.CodeInternal},
	}
	for _, tt := range tests {
		if got := lifecycle.ErrorCode(kvErr("read", "kv/x", tt.err)); got != tt.want {
			t.Errorf("%v: code %q, want %q", tt.err, got, tt.want)
		}
	}
}
