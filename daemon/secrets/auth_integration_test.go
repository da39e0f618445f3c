//go:build integration

package secrets_test

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/vault/api"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

func TestAppRoleLogin(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	roleID, secretID := v.appRole(t, map[string]any{"token_ttl": "1h"})
	ctx := context.Background()

	s := secrets.NewStore(v.adapter(t, "", appRoleConfig(t, roleID, secretID), secrets.VaultOptions{}))
	if err := s.PutMAASToken(ctx, secrets.APITokenPath("s1"), "ck:tk:approle"); err != nil {
		t.Fatalf("write after AppRole login: %v", err)
	}
	if got, err := s.MAASToken(ctx, secrets.APITokenPath("s1")); err != nil || got.Reveal() != "ck:tk:approle" {
		t.Fatalf("read after AppRole login: %v", err)
	}

	bad := secrets.NewStore(v.adapter(t, "", appRoleConfig(t, roleID, "not-the-secret-id"), secrets.VaultOptions{}))
	_, err := bad.MAASToken(ctx, secrets.APITokenPath("s1"))
	wantCode(t, "wrong secret id", err, lifecycle.CodeUnauthorized)
}

// TestRenewalKeepsAShortTokenAlive gives the adapter a renewable token that
// expires after 3 s and no way to log in again (the token file never
// changes): only renewal keeps writes working after 5 s.
func TestRenewalKeepsAShortTokenAlive(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	s, err := v.root.Auth().Token().Create(&api.TokenCreateRequest{TTL: "3s", Renewable: boolPtr(true)})
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	a := v.adapter(t, s.Auth.ClientToken, nil, secrets.VaultOptions{Metrics: secrets.NewMetrics(reg)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	time.Sleep(5 * time.Second)
	store := secrets.NewStore(a)
	if err := store.PutMAASToken(context.Background(), secrets.APITokenPath("s1"), "ck:tk:renewed"); err != nil {
		t.Fatalf("write 5 s into a 3 s token: %v", err)
	}
	if n := counter(t, reg, "maas_sidecar_vault_requests_total", "renew", "ok"); n < 2 {
		t.Errorf("renewals = %v, want at least 2", n)
	}
}

// TestRunLogsInAgainAtMaxTTL uses an AppRole whose tokens live at most 3 s:
// the renewal loop must log in again rather than let reads fail.
func TestRunLogsInAgainAtMaxTTL(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	roleID, secretID := v.appRole(t, map[string]any{"token_ttl": "2s", "token_max_ttl": "3s"})
	reg := prometheus.NewRegistry()
	a := v.adapter(t, "", appRoleConfig(t, roleID, secretID), secrets.VaultOptions{Metrics: secrets.NewMetrics(reg)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()

	// The second login is due at the 3s max TTL; allow for a loaded
	// machine (a failed renewal waits 5s before the next try).
	deadline := time.Now().Add(15 * time.Second)
	for counter(t, reg, "maas_sidecar_vault_requests_total", "login", "ok") < 2 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := counter(t, reg, "maas_sidecar_vault_requests_total", "login", "ok"); n < 2 {
		t.Errorf("logins = %v after 15s, want at least 2 (the first and one at max TTL)", n)
	}
	if err := secrets.NewStore(a).PutMAASToken(context.Background(), secrets.APITokenPath("s1"), "ck:tk:x"); err != nil {
		t.Fatalf("write: %v", err)
	}
	if n := counter(t, reg, "maas_sidecar_vault_requests_total", "write", "forbidden"); n != 0 {
		t.Errorf("a write met an expired token %v times", n)
	}
}

func boolPtr(b bool) *bool { return &b }

// counter returns the value of the series of name with the given op and
// result labels, or 0.
func counter(t *testing.T, reg *prometheus.Registry, name, op, result string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["op"] == op && labels["result"] == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
