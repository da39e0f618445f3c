package pki

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
)

// caFiles names a CA's key and certificate files and its subject.
type caFiles struct{ key, cert, name string }

var (
	agentCA = caFiles{CAKeyFile, CACertFile, "maas-sidecar agent CA"}
	storeCA = caFiles{StoreCAKeyFile, StoreCACertFile, "maas-sidecar store CA"}
)

// loadedCA is a CA's signer, certificate and certificate PEM.
type loadedCA struct {
	key  crypto.Signer
	cert *x509.Certificate
	pem  []byte
}

func (p *PKI) loadOrCreateCA(f caFiles) (loadedCA, error) {
	keyPEM, kerr := os.ReadFile(p.path(f.key))
	certPEM, cerr := os.ReadFile(p.path(f.cert))
	if errors.Is(kerr, fs.ErrNotExist) && errors.Is(cerr, fs.ErrNotExist) {
		return p.createCA(f)
	}
	if err := errors.Join(kerr, cerr); err != nil {
		return loadedCA{}, fmt.Errorf("load %s: %w", f.name, err)
	}
	key, err := parseKey(keyPEM, f.key)
	if err != nil {
		return loadedCA{}, err
	}
	signer, ok := key.(*ecdsa.PrivateKey)
	cert, err := parseCert(certPEM)
	if err != nil || !ok || !signer.PublicKey.Equal(cert.PublicKey) {
		return loadedCA{}, fmt.Errorf("load %s: %s and %s do not form a CA key pair", f.name, f.key, f.cert)
	}
	return loadedCA{signer, cert, certPEM}, nil
}

func (p *PKI) createCA(f caFiles) (loadedCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), p.opts.Rand)
	if err != nil {
		return loadedCA{}, fmt.Errorf("create %s key: %w", f.name, err)
	}
	serial, err := p.serial()
	if err != nil {
		return loadedCA{}, err
	}
	now := p.opts.Clock.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: f.name, Organization: []string{"gpuaas"}},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(p.opts.CAValidity),
		IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	if f == storeCA {
		// A store CA issues member certificates and nothing else.
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return loadedCA{}, fmt.Errorf("create %s certificate: %w", f.name, err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if !p.memoryOnly {
		if err := writeKey(p.path(f.key), key); err != nil {
			return loadedCA{}, err
		}
		if err := writeFile(p.path(f.cert), certPEM, 0o644); err != nil {
			return loadedCA{}, err
		}
	}
	cert, _ := x509.ParseCertificate(der)
	return loadedCA{key, cert, certPEM}, nil
}

func (p *PKI) loadOrCreateSigningKey() error {
	b, err := os.ReadFile(p.path(SigningKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		_, key, gerr := ed25519.GenerateKey(p.opts.Rand)
		if gerr != nil {
			return fmt.Errorf("create signing key: %w", gerr)
		}
		p.signKey = key
		return writeKey(p.path(SigningKeyFile), key)
	}
	if err != nil {
		return fmt.Errorf("load signing key: %w", err)
	}
	key, err := parseKey(b, SigningKeyFile)
	if err != nil {
		return err
	}
	ed, ok := key.(ed25519.PrivateKey)
	if !ok {
		return fmt.Errorf("load signing key: %s is not an ed25519 key", SigningKeyFile)
	}
	p.signKey = ed
	return nil
}

func (p *PKI) serial() (*big.Int, error) {
	n, err := randInt(p.opts.Rand)
	if err != nil {
		return nil, fmt.Errorf("certificate serial: %w", err)
	}
	return n, nil
}
