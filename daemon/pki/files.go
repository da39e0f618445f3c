package pki

import (
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

func (p *PKI) loadOrCreateCA() error {
	keyPEM, kerr := os.ReadFile(p.path(CAKeyFile))
	certPEM, cerr := os.ReadFile(p.path(CACertFile))
	if errors.Is(kerr, fs.ErrNotExist) && errors.Is(cerr, fs.ErrNotExist) {
		return p.createCA()
	}
	if err := errors.Join(kerr, cerr); err != nil {
		return fmt.Errorf("load CA: %w", err)
	}
	key, err := parseKey(keyPEM, CAKeyFile)
	if err != nil {
		return err
	}
	signer, ok := key.(*ecdsa.PrivateKey)
	cert, err := parseCert(certPEM)
	if err != nil || !ok || !signer.PublicKey.Equal(cert.PublicKey) {
		return fmt.Errorf("load CA: %s and %s do not form a CA key pair", CAKeyFile, CACertFile)
	}
	p.caKey, p.caCert, p.caPEM = signer, cert, certPEM
	return nil
}

func (p *PKI) createCA() error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), p.opts.Rand)
	if err != nil {
		return fmt.Errorf("create CA key: %w", err)
	}
	serial, err := p.serial()
	if err != nil {
		return err
	}
	now := p.opts.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "maas-sidecar agent CA", Organization: []string{"gpuaas"}},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(p.opts.CAValidity),
		IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("create CA certificate: %w", err)
	}
	if err := writeKey(p.path(CAKeyFile), key); err != nil {
		return err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := writeFile(p.path(CACertFile), certPEM, 0o644); err != nil {
		return err
	}
	cert, _ := x509.ParseCertificate(der)
	p.caKey, p.caCert, p.caPEM = key, cert, certPEM
	return nil
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
