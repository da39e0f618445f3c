package pki

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"
)

// File names inside Options.Dir.
const (
	CAKeyFile      = "ca.key"
	CACertFile     = "ca.crt"
	SigningKeyFile = "task-signing.key"
	// StoreCAKeyFile and StoreCACertFile are the store CA: it issues the
	// certificates store members present to each other, and nothing an
	// agent ever holds.
	StoreCAKeyFile  = "store-ca.key"
	StoreCACertFile = "store-ca.crt"
)

// Options configure Open. Zero values mean defaults.
type Options struct {
	// Dir holds the CA and signing keys; created 0700 when missing.
	Dir string
	// Clock is the clock (the real one); Rand the randomness source
	// (crypto/rand).
	Clock clockwork.Clock
	Rand  io.Reader
	// ClientCertTTL is the lifetime of agent certificates (24h).
	ClientCertTTL time.Duration
	// CAValidity is the lifetime of a new CA (10 years).
	CAValidity time.Duration
	// SiteKey is the public half of the site key that signs clean
	// certificates (evidence-site.key in Dir); when set, member
	// certificates carry its fingerprint and CheckPeer refuses a member
	// that carries another.
	SiteKey ed25519.PublicKey
	// RetiredSiteKeys are the site key's retired public halves: CheckPeer
	// accepts a member that still carries one of them (it started before
	// the rotation's new key reached it), so members restart one at a
	// time after a rotation.
	RetiredSiteKeys []ed25519.PublicKey
}

// PKI is the loaded CA and task-signing key.
type PKI struct {
	opts    Options
	caKey   crypto.Signer
	caCert  *x509.Certificate
	caPEM   []byte
	signKey ed25519.PrivateKey
	store   loadedCA
	// memoryOnly: keys are never written (InMemory).
	memoryOnly bool
}

// InMemory makes a PKI whose CAs and keys exist in this process only
// (opts.Dir is not used): for a store command's member that nothing but
// the command itself may dial.
func InMemory(opts Options) (*PKI, error) {
	p := &PKI{opts: withDefaults(opts), memoryOnly: true}
	ca, err := p.createCA(agentCA)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	p.caKey, p.caCert, p.caPEM = ca.key, ca.cert, ca.pem
	if p.store, err = p.createCA(storeCA); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if _, p.signKey, err = ed25519.GenerateKey(p.opts.Rand); err != nil {
		return nil, fmt.Errorf("pki: create signing key: %w", err)
	}
	return p, nil
}

// Open loads the agent CA, the store CA and the signing key from
// opts.Dir, creating each at first start (keys 0600, directory 0700).
func Open(opts Options) (*PKI, error) {
	opts = withDefaults(opts)
	if opts.Dir == "" {
		return nil, fmt.Errorf("pki: no state directory")
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := os.Chmod(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	p := &PKI{opts: opts}
	ca, err := p.loadOrCreateCA(agentCA)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	p.caKey, p.caCert, p.caPEM = ca.key, ca.cert, ca.pem
	if p.store, err = p.loadOrCreateCA(storeCA); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := p.loadOrCreateSigningKey(); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return p, nil
}

func withDefaults(o Options) Options {
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.ClientCertTTL == 0 {
		o.ClientCertTTL = 24 * time.Hour
	}
	if o.CAValidity == 0 {
		o.CAValidity = 10 * 365 * 24 * time.Hour
	}
	return o
}

func (p *PKI) path(name string) string { return filepath.Join(p.opts.Dir, name) }

// CABundlePEM returns the CA certificate, PEM.
func (p *PKI) CABundlePEM() []byte { return append([]byte(nil), p.caPEM...) }

// CACert returns the parsed CA certificate.
func (p *PKI) CACert() *x509.Certificate { return p.caCert }

// ClientCertTTL is the lifetime of the client certificates SignCSR issues.
func (p *PKI) ClientCertTTL() time.Duration { return p.opts.ClientCertTTL }
