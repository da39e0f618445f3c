package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/jonboulle/clockwork"
)

// agentListener is the agent API's TLS server and what cloud-init tells
// the agents about it.
type agentListener struct {
	api    *agentapi.API
	server *agentapi.Server
	url    string
}

// startAgents opens the internal CA and binds the agent API listener.
func startAgents(cfg config.Config, st lifecycle.Store, p *pki.PKI, hook agentapi.EnrollHook,
	resolve agentapi.PayloadResolver, scripts agentapi.BootstrapScripts, judge agentapi.HealthJudge, m *agentapi.Metrics, clock clockwork.Clock,
	log *slog.Logger) (*agentListener, error) {
	ln, err := net.Listen("tcp", cfg.Agent.Listen)
	if err != nil {
		return nil, fmt.Errorf("agent.listen: %w", err)
	}
	u := agentURL(cfg, ln.Addr())
	hosts := cfg.Agent.CertHosts
	if len(hosts) == 0 {
		pu, _ := url.Parse(u)
		hosts = []string{pu.Hostname()}
	}
	cert, err := p.ServerCertificate(hosts)
	if err != nil {
		ln.Close()
		return nil, err
	}
	tc, err := agentapi.TLSConfig(cert, p.CABundlePEM())
	if err != nil {
		ln.Close()
		return nil, err
	}
	api := agentapi.New(agentapi.Config{Store: st, Authority: p, Signer: p, OnEnrolled: hook, Resolve: resolve, Bootstrap: scripts, Health: judge,
		WriteTimeout: cfg.Agent.HTTP.WriteTimeout, Metrics: m, Clock: clock, Logger: log.With("component", "agentapi")})
	admit := admission(cfg.Agent.Connections)
	admit.Clock = clock
	srv := &agentapi.Server{Listener: ln, Handler: api.Handler(), TLS: tc, ShutdownTimeout: cfg.ShutdownTimeout,
		Limits: limits(cfg.Agent.HTTP), Admission: admit, Metrics: m, Logger: log.With("component", "agentapi")}
	log.Info("agent listener bound", "addr", ln.Addr().String(), "url", u)
	return &agentListener{api: api, server: srv, url: u}, nil
}

// agentURL is agent.url, or https://<hostname>:<bound port>.
func agentURL(cfg config.Config, addr net.Addr) string {
	if cfg.Agent.URL != "" {
		return cfg.Agent.URL
	}
	host, _ := os.Hostname()
	_, port, _ := net.SplitHostPort(addr.String())
	return "https://" + net.JoinHostPort(host, port)
}

// openPKI opens (or creates at first start) the internal CA and the
// task-signing key under the state directory.
func openPKI(stateDir string) (*pki.PKI, error) {
	return openPKIOn(stateDir, clockwork.NewRealClock(), true)
}

// openPKIOn is openPKI on the daemon's clock. With dirKey (the PKI
// directory is the evidence site key's home, not Vault) the site key,
// created at first start too, is loaded first, so that member
// certificates carry its fingerprint and a cluster's members are checked
// to share it; with the key in Vault every member reads the same one.
func openPKIOn(stateDir string, clock clockwork.Clock, dirKey bool) (*pki.PKI, error) {
	dir := filepath.Join(stateDir, "pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if !dirKey {
		return pki.Open(pki.Options{Dir: dir, Clock: clock})
	}
	keys, err := cert.SitePublicKeys(dir, rand.Reader) // the current key, made at first start, then the retired ones
	if err != nil {
		return nil, err
	}
	return pki.Open(pki.Options{Dir: dir, Clock: clock, SiteKey: keys[0], RetiredSiteKeys: keys[1:]})
}

// run serves the agent API until ctx ends.
func (a *agentListener) run(ctx context.Context) error { return a.server.Run(ctx) }
