//go:build integration

package secrets_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// The LISTEN role's password is read from the path the credentials route
// writes, as written there: a rotation applies to the next read; missing,
// empty or misshapen is not_found; a stopped or sealed Vault unavailable.
func TestVaultNotifyDBPassword(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	b := v.adapter(t, v.Token, func(c *secrets.VaultConfig) { c.Timeout = 500 * time.Millisecond }, secrets.VaultOptions{})
	s := secrets.NewStore(b)
	ctx := context.Background()
	path := lifecycle.NotifyDBPasswordVaultPath("s1")

	_, err := s.NotifyDBPassword(ctx, "s1")
	wantCode(t, "never written", err, lifecycle.CodeNotFound)
	if err := b.Write(ctx, path, map[string]string{"password": "pg-first"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.NotifyDBPassword(ctx, "s1"); err != nil || got != "pg-first" {
		t.Fatalf("read after the credentials route's write: %q, %v", got, err)
	}
	if _, err := v.root.KVv2("kv").Put(ctx, "maas-sites/s1/notify-db", map[string]any{"password": "pg-rotated"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.NotifyDBPassword(ctx, "s1"); err != nil || got != "pg-rotated" {
		t.Fatalf("read after an outside rotation: %q, %v", got, err)
	}
	_, err = s.NotifyDBPassword(ctx, "s2")
	wantCode(t, "another site's", err, lifecycle.CodeNotFound)
	for name, data := range map[string]map[string]string{"empty": {"password": ""}, "wrong field": {"pass": "pg-x"}} {
		if err := b.Write(ctx, path, data); err != nil {
			t.Fatal(err)
		}
		_, err := s.NotifyDBPassword(ctx, "s1")
		wantCode(t, name, err, lifecycle.CodeNotFound)
	}

	v.signal(t, syscall.SIGSTOP)
	_, err = s.NotifyDBPassword(ctx, "s1")
	wantCode(t, "stopped vault", err, lifecycle.CodeUnavailable)
	v.signal(t, syscall.SIGCONT)
	v.seal(t)
	_, err = s.NotifyDBPassword(ctx, "s1")
	wantCode(t, "sealed vault", err, lifecycle.CodeUnavailable)
}
