//go:build integration

package secrets_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

func wantCode(t *testing.T, what string, err error, want lifecycle.Code) {
	t.Helper()
	if got := lifecycle.ErrorCode(err); got != want {
		t.Fatalf("%s: error %v (code %q), want code %q", what, err, got, want)
	}
}

func TestVaultReadWriteRotate(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	s := secrets.NewStore(v.adapter(t, v.Token, nil, secrets.VaultOptions{}))
	ctx := context.Background()
	path := secrets.APITokenPath("site-1")

	for _, tok := range []secrets.Secret{"ck:tk:first", "ck:tk:rotated"} {
		if err := s.PutMAASToken(ctx, path, tok); err != nil {
			t.Fatalf("write: %v", err)
		}
		got, err := s.MAASToken(ctx, path)
		if err != nil || got != tok {
			t.Fatalf("read after write of %s: %s, %v", tok.Reveal(), got.Reveal(), err)
		}
	}
	// A rotation by someone else (an operator with the Vault CLI) applies
	// to the next read of the same adapter: nothing is cached.
	if _, err := v.root.KVv2("kv").Put(ctx, "maas-sites/site-1/api-token", map[string]any{"token": "ck:tk:outside"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.MAASToken(ctx, path); err != nil || got.Reveal() != "ck:tk:outside" {
		t.Fatalf("read after an outside rotation: %s, %v", got.Reveal(), err)
	}

	_, err := s.MAASToken(ctx, secrets.APITokenPath("no-such-site"))
	wantCode(t, "missing path", err, lifecycle.CodeNotFound)
	_, err = s.DeployPassword(ctx, path)
	wantCode(t, "missing field", err, lifecycle.CodeNotFound)
}

func TestVaultPowerCredentialsByOverride(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	s := secrets.NewStore(v.adapter(t, v.Token, nil, secrets.VaultOptions{}))
	ctx := context.Background()
	def, ovr := secrets.PowerDefaultPath("s1"), secrets.PowerOverridePath("s1", "o1")
	_ = s.PutPowerCredentials(ctx, def, secrets.PowerCredentials{User: "root", Pass: "default-pass"})
	_ = s.PutPowerCredentials(ctx, ovr, secrets.PowerCredentials{User: "admin", Pass: "override-pass"})
	overrides := []lifecycle.PowerOverride{{ID: "o1", SelectorType: lifecycle.SelectIPMIIP, SelectorValue: "10.0.0.7", VaultPath: ovr, Status: "active"}}

	got, sel, err := s.PowerCredentialsFor(ctx, def, overrides, lifecycle.NodeKeys{IPMIIP: "10.0.0.7"})
	if err != nil || got.Pass.Reveal() != "override-pass" || sel.Override == nil || sel.Override.ID != "o1" {
		t.Fatalf("override node: %+v %+v %v", got, sel, err)
	}
	got, _, err = s.PowerCredentialsFor(ctx, def, overrides, lifecycle.NodeKeys{IPMIIP: "10.0.0.8"})
	if err != nil || got.Pass.Reveal() != "default-pass" {
		t.Fatalf("default node: %+v %v", got, err)
	}
}

func TestVaultWrongTokenAndPermission(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	ctx := context.Background()
	_, err := secrets.NewStore(v.adapter(t, "hvs.not-a-real-token", nil, secrets.VaultOptions{})).
		MAASToken(ctx, secrets.APITokenPath("s1"))
	wantCode(t, "wrong token", err, lifecycle.CodeForbidden)

	limited := v.tokenWithPolicy(t, `path "kv/data/maas-sites/s1/*" { capabilities = ["read", "create", "update"] }`)
	s := secrets.NewStore(v.adapter(t, limited, nil, secrets.VaultOptions{}))
	if err := s.PutMAASToken(ctx, secrets.APITokenPath("s1"), "ck:tk:s1"); err != nil {
		t.Fatalf("allowed write: %v", err)
	}
	err = s.PutMAASToken(ctx, secrets.APITokenPath("s2"), "ck:tk:s2")
	wantCode(t, "write outside the policy", err, lifecycle.CodeForbidden)
	_, err = s.MAASToken(ctx, secrets.APITokenPath("s2"))
	wantCode(t, "read outside the policy", err, lifecycle.CodeForbidden)
}

func TestVaultStoppedSealedThenRecovers(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	s := secrets.NewStore(v.adapter(t, v.Token, func(c *secrets.VaultConfig) { c.Timeout = 500 * time.Millisecond }, secrets.VaultOptions{}))
	ctx := context.Background()
	path := secrets.DeployPasswordPath("s1")
	if err := s.PutDeployPassword(ctx, path, "deploy-pass"); err != nil {
		t.Fatal(err)
	}
	read := func() error { _, err := s.DeployPassword(ctx, path); return err }

	v.signal(t, syscall.SIGSTOP)
	start := time.Now()
	err := read()
	wantCode(t, "stopped vault", err, lifecycle.CodeUnavailable)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a stopped vault took %s to report, want about the 500 ms timeout", d)
	}
	v.signal(t, syscall.SIGCONT)
	if err := read(); err != nil {
		t.Fatalf("after resume: %v", err)
	}

	v.seal(t)
	wantCode(t, "sealed vault", read(), lifecycle.CodeUnavailable)
	v.unseal(t)
	if err := read(); err != nil {
		t.Fatalf("after unseal: %v", err)
	}

	v.signal(t, syscall.SIGKILL)
	_ = v.cmd.Wait()
	wantCode(t, "killed vault", read(), lifecycle.CodeUnavailable)
}

func TestVaultTLSWithCAFile(t *testing.T) {
	t.Parallel()
	v := startVault(t, "-tls-dir", t.TempDir())
	ctx := context.Background()
	s := secrets.NewStore(v.adapter(t, v.Token, nil, secrets.VaultOptions{}))
	if err := s.PutMAASToken(ctx, secrets.APITokenPath("s1"), "ck:tk:tls"); err != nil {
		t.Fatalf("write over TLS with the CA file: %v", err)
	}
	untrusting := secrets.NewStore(v.adapter(t, v.Token, func(c *secrets.VaultConfig) { c.CACertFile = "" }, secrets.VaultOptions{}))
	_, err := untrusting.MAASToken(ctx, secrets.APITokenPath("s1"))
	if err == nil || lifecycle.IsRetryable(err) {
		t.Fatalf("without the CA: %v, want a non-retryable error", err)
	}
}

// TestVaultTokenFileRotation replaces the adapter's token in its file (as a
// Vault agent does) and revokes the old one: the next read logs in with the
// new token, without a restart.
func TestVaultTokenFileRotation(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	ctx := context.Background()
	old := v.tokenWithPolicy(t, `path "kv/*" { capabilities = ["create", "read", "update"] }`)
	cfg := secrets.VaultConfig{Address: v.Addr, TokenFile: writeFile(t, "token", old), Timeout: 2 * time.Second}
	a, err := secrets.NewVault(cfg, secrets.VaultOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := secrets.NewStore(a)
	if err := s.PutMAASToken(ctx, secrets.APITokenPath("s1"), "ck:tk:1"); err != nil {
		t.Fatalf("with the first token: %v", err)
	}
	next := v.tokenWithPolicy(t, `path "kv/*" { capabilities = ["create", "read", "update"] }`)
	if err := os.WriteFile(cfg.TokenFile, []byte(next), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := v.root.Auth().Token().RevokeTree(old); err != nil {
		t.Fatal(err)
	}
	if got, err := s.MAASToken(ctx, secrets.APITokenPath("s1")); err != nil || got.Reveal() != "ck:tk:1" {
		t.Fatalf("after the token file changed: %v", err)
	}
}
