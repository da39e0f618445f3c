//go:build integration

package secrets_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// leakProbe collects every error, log record and metric the adapter
// produces on its error paths.
type leakProbe struct {
	t    *testing.T
	logs bytes.Buffer
	reg  *prometheus.Registry
	opts secrets.VaultOptions
	errs []string
}

func newLeakProbe(t *testing.T) *leakProbe {
	p := &leakProbe{t: t, reg: prometheus.NewRegistry()}
	p.opts = secrets.VaultOptions{
		Log:     slog.New(slog.NewJSONHandler(&p.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Metrics: secrets.NewMetrics(p.reg),
	}
	return p
}

// expect records err, which must carry the given code.
func (p *leakProbe) expect(what string, err error, code lifecycle.Code) {
	p.t.Helper()
	if got := lifecycle.ErrorCode(err); got != code {
		p.t.Fatalf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
	p.errs = append(p.errs, fmt.Sprintf("%v | %+v | %s", err, err, lifecycle.ErrorField(err)))
}

func (p *leakProbe) metrics() string {
	mfs, err := p.reg.Gather()
	if err != nil {
		p.t.Fatal(err)
	}
	var b bytes.Buffer
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&b, mf); err != nil {
			p.t.Fatal(err)
		}
	}
	return b.String()
}

// burstClock is a fake clock that lets the renewal loop run n rounds
// without waiting, then ends it.
type burstClock struct {
	clockwork.Clock
	mu     sync.Mutex
	n      int
	cancel func()
}

func (c *burstClock) After(time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n <= 0 {
		c.cancel()
	}
	return c.Clock.After(0)
}

// TestNoSecretLeaksOnErrorPaths seeds known secret values, drives the
// adapter through its error paths, and looks for the values in every error,
// log record and metric it produced.
func TestNoSecretLeaksOnErrorPaths(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	p := newLeakProbe(t)
	ctx := context.Background()
	seeded := map[string]string{
		"maas token": "ck:tk:LEAK-maas-7f3a", "power pass": "LEAK-power-91c2", "deploy pass": "LEAK-deploy-55de",
		"notify db pass": "LEAK-notify-db-0b7d",
		"wrong token":    "hvs.LEAK-wrong-token-e4b0", "wrong secret id": "LEAK-bad-secret-id-3d1e", "root token": v.Token,
	}
	root := secrets.NewStore(v.adapter(t, v.Token, nil, p.opts))
	_ = root.PutMAASToken(ctx, secrets.APITokenPath("s1"), secrets.Secret(seeded["maas token"]))
	_ = root.PutPowerCredentials(ctx, secrets.PowerDefaultPath("s1"), secrets.PowerCredentials{User: "root", Pass: secrets.Secret(seeded["power pass"])})
	_, _ = v.root.KVv2("kv").Put(ctx, "maas-sites/s1/deploy-password", map[string]any{"password": []any{seeded["deploy pass"]}})
	_, _ = v.root.KVv2("kv").Put(ctx, "maas-sites/s1/notify-db", map[string]any{"password": []any{seeded["notify db pass"]}})

	limitedToken := v.tokenWithPolicy(t, `path "kv/data/maas-sites/s1/*" { capabilities = ["read"] }`)
	seeded["limited token"] = limitedToken
	roleID, secretID := v.appRole(t, map[string]any{"token_ttl": "1h"})
	seeded["secret id"] = secretID

	leakErrorPaths(t, v, p, seeded, limitedToken, roleID)

	outputs := map[string]string{"errors": strings.Join(p.errs, "\n"), "logs": p.logs.String(), "metrics": p.metrics()}
	if p.logs.Len() == 0 || !strings.Contains(outputs["metrics"], "maas_sidecar_vault_requests_total") {
		t.Fatal("the error paths left no logs or no metrics to inspect")
	}
	for where, out := range outputs {
		for name, value := range seeded {
			if strings.Contains(out, value) {
				t.Errorf("the %s (%q) appears in the %s:\n%s", name, value, where, out)
			}
		}
	}
}

// leakErrorPaths runs every error path, each with a seeded value at hand.
func leakErrorPaths(t *testing.T, v *vaultDev, p *leakProbe, seeded map[string]string, limitedToken, roleID string) {
	ctx := context.Background()
	power := secrets.PowerCredentials{User: "root", Pass: secrets.Secret(seeded["power pass"])}

	limited := secrets.NewStore(v.adapter(t, limitedToken, nil, p.opts))
	p.expect("write outside the policy", limited.PutPowerCredentials(ctx, secrets.PowerDefaultPath("s2"), power), lifecycle.CodeForbidden)
	p.expect("write with a read-only policy", limited.PutMAASToken(ctx, secrets.APITokenPath("s1"), secrets.Secret(seeded["maas token"])), lifecycle.CodeForbidden)
	_, err := limited.DeployPassword(ctx, secrets.DeployPasswordPath("s1"))
	p.expect("a field that is not a string", err, lifecycle.CodeInternal)
	_, err = limited.DeployPassword(ctx, secrets.APITokenPath("s1"))
	p.expect("a missing field", err, lifecycle.CodeNotFound)
	_, err = limited.NotifyDBPassword(ctx, "s1")
	p.expect("a notify-db password that is not a string", err, lifecycle.CodeInternal)
	_, err = limited.NotifyDBPassword(ctx, "s2")
	p.expect("a notify-db password outside the policy", err, lifecycle.CodeForbidden)

	wrong := v.adapter(t, seeded["wrong token"], nil, p.opts)
	p.expect("write with a wrong token", secrets.NewStore(wrong).PutPowerCredentials(ctx, secrets.PowerDefaultPath("s1"), power), lifecycle.CodeForbidden)
	runCtx, cancel := context.WithCancel(ctx)
	wrongRun := v.adapter(t, seeded["wrong token"], nil, secrets.VaultOptions{Log: p.opts.Log, Metrics: p.opts.Metrics, Clock: &burstClock{Clock: clockwork.NewFakeClock(), n: 3, cancel: cancel}})
	_ = wrongRun.Run(runCtx) // logs each failed renewal round

	badRole := secrets.NewStore(v.adapter(t, "", appRoleConfig(t, roleID, seeded["wrong secret id"]), p.opts))
	_, err = badRole.MAASToken(ctx, secrets.APITokenPath("s1"))
	p.expect("AppRole with a wrong secret id", err, lifecycle.CodeUnauthorized)

	quick := secrets.NewStore(v.adapter(t, v.Token, func(c *secrets.VaultConfig) { c.Timeout = 300 * time.Millisecond }, p.opts))
	v.signal(t, syscall.SIGSTOP)
	p.expect("write to a stopped vault", quick.PutPowerCredentials(ctx, secrets.PowerDefaultPath("s1"), power), lifecycle.CodeUnavailable)
	v.signal(t, syscall.SIGCONT)
	v.seal(t)
	p.expect("write to a sealed vault", quick.PutMAASToken(ctx, secrets.APITokenPath("s1"), secrets.Secret(seeded["maas token"])), lifecycle.CodeUnavailable)
	_, err = quick.PowerCredentials(ctx, secrets.PowerDefaultPath("s1"))
	p.expect("read from a sealed vault", err, lifecycle.CodeUnavailable)
	_, err = quick.NotifyDBPassword(ctx, "s1")
	p.expect("notify-db password from a sealed vault", err, lifecycle.CodeUnavailable)
	v.unseal(t)
}
