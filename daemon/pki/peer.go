package pki

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
)

// PeerDNSName is the first DNS name of every member certificate: the
// members of a store cluster dial each other under it and trust a peer
// whose certificate the shared CA issued with it.
const PeerDNSName = "maas-sidecar-store"

// SigningURIScheme is the URI SAN scheme of a member certificate that
// carries the fingerprint of its daemon's task-signing key
// ("maas-sidecar-signing:<hex SHA-256 of the public key>"), so that a
// member can see before joining that a peer signs tasks with its key.
const SigningURIScheme = "maas-sidecar-signing"

// Fingerprints are the public identities that every member of a cluster
// must share: the CA certificate and the task-signing public key.
type Fingerprints struct {
	CA      string // hex SHA-256 of the CA certificate (DER)
	Signing string // hex SHA-256 of the task-signing public key
}

// Fingerprints returns this PKI's fingerprints.
func (p *PKI) Fingerprints() Fingerprints {
	ca := sha256.Sum256(p.caCert.Raw)
	sg := sha256.Sum256(p.SigningPublicKey())
	return Fingerprints{CA: hex.EncodeToString(ca[:]), Signing: hex.EncodeToString(sg[:])}
}

// CertPool is a pool holding the CA certificate alone.
func (p *PKI) CertPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.caCert)
	return pool
}

// PeerCertificate issues this member's certificate for the store cluster
// (server and client use) with a fresh in-memory key, valid one year:
// DNS names PeerDNSName and host (or host as an IP address), and the
// task-signing fingerprint as a URI.
func (p *PKI) PeerCertificate(host string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), p.opts.Rand)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: peer key: %w", err)
	}
	serial, err := p.serial()
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: %w", err)
	}
	now := p.opts.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "maas-sidecar store member " + host},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(365 * 24 * time.Hour),
		DNSNames:    []string{PeerDNSName},
		URIs:        []*url.URL{{Scheme: SigningURIScheme, Opaque: p.Fingerprints().Signing}},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else if host != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: peer certificate: %w", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// ErrPeerMismatch is wrapped by CheckPeer's answer for a peer whose CA or
// task-signing key differs from this daemon's.
var ErrPeerMismatch = errors.New("the member does not share this daemon's CA and task-signing key")

// CheckPeer dials the member at addr over TLS, reads the certificate it
// presents and checks, before this daemon joins it, that the CA issued it
// for PeerDNSName and that it carries this daemon's task-signing
// fingerprint. A peer that cannot be reached is an error that does not
// wrap ErrPeerMismatch.
func (p *PKI) CheckPeer(ctx context.Context, addr string, self tls.Certificate) error {
	var chain [][]byte
	cfg := &tls.Config{
		Certificates: []tls.Certificate{self}, MinVersion: tls.VersionTLS12,
		// the chain is verified below, with messages that say what differs
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			chain = raw
			return nil
		},
	}
	conn, err := (&tls.Dialer{Config: cfg, NetDialer: &net.Dialer{}}).DialContext(ctx, "tcp", addr)
	if err == nil {
		conn.Close()
	}
	if len(chain) == 0 {
		return fmt.Errorf("pki: member %s: no certificate read: %v", addr, err)
	}
	return p.checkPeerChain(addr, chain)
}

func (p *PKI) checkPeerChain(addr string, chain [][]byte) error {
	leaf, err := x509.ParseCertificate(chain[0])
	if err != nil {
		return fmt.Errorf("pki: member %s: malformed certificate", addr)
	}
	mine := p.Fingerprints()
	_, err = leaf.Verify(x509.VerifyOptions{Roots: p.CertPool(), DNSName: PeerDNSName,
		CurrentTime: p.opts.Now(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		return fmt.Errorf("%w: member %s presents a certificate that this daemon's CA (SHA-256 %s) does not verify (%v)",
			ErrPeerMismatch, addr, mine.CA, err)
	}
	for _, u := range leaf.URIs {
		if u.Scheme == SigningURIScheme && u.Opaque == mine.Signing {
			return nil
		}
	}
	return fmt.Errorf("%w: member %s signs agent tasks with another key than this daemon's (SHA-256 %s)",
		ErrPeerMismatch, addr, mine.Signing)
}
