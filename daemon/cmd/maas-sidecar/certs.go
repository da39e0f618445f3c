package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	"github.com/jonboulle/clockwork"
)

// certService issues the clean certificates with the site key kept in
// the PKI directory and serves them to the admin API, over the store's
// certificate ledger.
type certService struct {
	dir string
	cert.Issuer
	ledger certledger.Ledger
}

// newCertService loads (or creates, on first start) the site key in
// pkiDir; the store must keep a certificate ledger (both backends do).
func newCertService(pkiDir string, st daemonStore, clock clockwork.Clock) (*certService, error) {
	b, ok := st.Store.(certledger.Backend)
	if !ok {
		return nil, fmt.Errorf("store %T keeps no certificate ledger", st.Store)
	}
	key, err := cert.LoadOrCreateSiteKey(pkiDir, rand.Reader)
	if err != nil {
		return nil, err
	}
	l := certledger.Ledger{B: b}
	return &certService{dir: pkiDir, Issuer: cert.Issuer{Key: key, Ledger: l, Clock: clock, Turns: new(sync.Mutex)}, ledger: l}, nil
}

// PublicKeys returns the current public key, then the retired ones.
func (c *certService) PublicKeys(context.Context) ([]ed25519.PublicKey, error) {
	return cert.SitePublicKeys(c.dir, rand.Reader)
}

// Export returns a node's chain as an offline bundle.
func (c *certService) Export(ctx context.Context, nodeID string) (cert.Bundle, error) {
	return c.ledger.Export(ctx, nodeID)
}

// ByRun returns the certificate issued under key.
func (c *certService) ByRun(ctx context.Context, key string) (cert.Record, bool, error) {
	return c.ledger.ByRun(ctx, key)
}
