package main

import (
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/netcheck"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/ipmi"
	"github.com/jonboulle/clockwork"
)

// openSecrets returns the secret backend the daemon reads and, when Vault
// is configured, the Vault client itself (the admin API writes credentials
// through it and its Run keeps the token renewed).
func openSecrets(cfg config.Config, m *secrets.Metrics, clock clockwork.Clock, log *slog.Logger) (secrets.Backend, *secrets.Vault, error) {
	v := cfg.Vault
	if v.Address == "" {
		log.Warn("no Vault configured (vault.address): site credentials cannot be read or written")
		return noVault{}, nil, nil
	}
	vault, err := secrets.NewVault(secrets.VaultConfig{Address: v.Address, Namespace: v.Namespace, CACertFile: v.CACertFile,
		TokenFile: v.TokenFile, RoleIDFile: v.RoleIDFile, SecretIDFile: v.SecretIDFile},
		secrets.VaultOptions{Log: log.With("component", "vault"), Metrics: m, Clock: clock})
	if err != nil {
		return nil, nil, err
	}
	return vault, vault, nil
}

// openPower returns direct BMC access through bmclib. A bad ipmi.* key
// stops the daemon; a host without ipmitool gets a Power that says so to
// the one stage that needs it (PXE discovery).
func openPower(cfg config.Config, m *ipmi.Metrics, clock clockwork.Clock, log *slog.Logger) (workflow.Power, error) {
	c, err := ipmi.New(ipmi.Config{Providers: cfg.IPMI.Providers, CipherSuite: cfg.IPMI.CipherSuite, Timeout: cfg.IPMI.Timeout},
		ipmi.Options{Log: log.With("component", "ipmi"), Metrics: m, Clock: clock})
	if lifecycle.ErrorCode(err) == lifecycle.CodeInvalid {
		return nil, err
	}
	if err != nil {
		log.Warn("direct BMC access unavailable; PXE discovery will fail", "err", err)
		return noPower{why: err.Error()}, nil
	}
	return ipmi.PXE{BMCs: c}, nil
}

// adapterMetrics are the production adapters' metrics.
type adapterMetrics struct {
	vault *secrets.Metrics
	bmc   *ipmi.Metrics
}

// reachability is the TCP check of deployed hosts on connectivity.port;
// port 0 turns it off.
func reachability(c config.Connectivity) workflow.Reachability {
	if c.Port == 0 {
		return nil
	}
	return netcheck.TCP{Port: c.Port, Timeout: c.Timeout}
}

// productionAdapters are Vault (when configured), bmclib and the TCP
// reachability check.
func productionAdapters(cfg config.Config, m adapterMetrics, clock clockwork.Clock, log *slog.Logger) (adapters, error) {
	sec, vault, err := openSecrets(cfg, m.vault, clock, log)
	if err != nil {
		return adapters{}, err
	}
	power, err := openPower(cfg, m.bmc, clock, log)
	if err != nil {
		return adapters{}, err
	}
	ad := adapters{secrets: sec, power: power, reach: reachability(cfg.Connectivity)}
	if vault != nil {
		ad.writer = vault
		ad.runs = append(ad.runs, vault.Run)
	}
	return ad, nil
}
