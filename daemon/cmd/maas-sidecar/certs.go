package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	"github.com/jonboulle/clockwork"
)

// certService issues the clean certificates with the site key of its
// key home (Vault, or the PKI directory) and serves them to the admin
// API, over the store's certificate ledger.
type certService struct {
	home cert.KeyHome
	*cert.Issuer
	ledger certledger.Ledger
}

// newCertService issues with the site key of home; the store must keep a
// certificate ledger (both backends do).
func newCertService(home cert.KeyHome, st daemonStore, clock clockwork.Clock) (*certService, error) {
	b, ok := st.Store.(certledger.Backend)
	if !ok {
		return nil, fmt.Errorf("store %T keeps no certificate ledger", st.Store)
	}
	l := certledger.Ledger{B: b}
	return &certService{home: home, Issuer: &cert.Issuer{Key: home, Ledger: l, Clock: clock}, ledger: l}, nil
}

// vaultSiteKey is whether the evidence site key lives in Vault: when the
// daemon uses Vault (not in dev mode, whose secrets are in memory).
func vaultSiteKey(cfg config.Config) bool { return !cfg.Dev && cfg.Vault.Address != "" }

// siteKeyHome is the evidence site key's home: Vault's KV at
// secrets.EvidenceSiteKeyPath when the daemon uses Vault, else the PKI
// directory. A key the PKI directory still holds from before is moved
// into Vault; Vault out of reach only delays that (and the key's
// creation) to the next use of the key.
func siteKeyHome(ctx context.Context, cfg config.Config, kv cert.KV, pkiDir string, log *slog.Logger) cert.KeyHome {
	if !vaultSiteKey(cfg) || kv == nil {
		return cert.DirHome{Dir: pkiDir, Rand: rand.Reader}
	}
	h := cert.KVHome{KV: kv, Path: secrets.EvidenceSiteKeyPath, Rand: rand.Reader, Dir: pkiDir}
	moved, err := h.Adopt(ctx, pkiDir)
	if err == nil {
		_, err = h.Current(ctx)
	}
	if err != nil {
		log.Warn("evidence site key not ready in Vault; the first certificate tries again", "err", err)
	}
	if moved {
		log.Info("evidence site key moved from the PKI directory into Vault", "path", secrets.EvidenceSiteKeyPath)
	}
	return h
}

// PublicKeys returns the current public key, then the retired ones.
func (c *certService) PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error) {
	return c.home.PublicKeys(ctx)
}

// Export returns a node's chain as an offline bundle.
func (c *certService) Export(ctx context.Context, nodeID string) (cert.Bundle, error) {
	return c.ledger.Export(ctx, nodeID)
}

// ByRun returns the certificate issued under key.
func (c *certService) ByRun(ctx context.Context, key string) (cert.Record, bool, error) {
	return c.ledger.ByRun(ctx, key)
}

// siteKeyWait bounds the start's reads and writes of the site key in
// Vault.
const siteKeyWait = 15 * time.Second

// RotateKey retires the site key and makes a new one in its home; the
// next certificate is signed with it.
func (c *certService) RotateKey(ctx context.Context) error {
	_, err := c.home.Rotate(ctx)
	return err
}
