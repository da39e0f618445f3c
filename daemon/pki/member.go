package pki

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
)

// MemberDNSName is the first DNS name of a store member certificate and
// the server name members dial each other under.
const MemberDNSName = "maas-sidecar-store-member"

// MemberURI is the member identity every store member certificate
// carries as a URI SAN; the member port accepts no certificate without
// it, and no certificate the agent CA issued carries it.
const MemberURI = "urn:maas-sidecar:store-member"

// ErrNotMember is wrapped by the member port's refusal of a certificate
// that is not a store member's.
var ErrNotMember = errors.New("not a store member certificate")

// StoreCertPool is a pool holding the store CA alone.
func (p *PKI) StoreCertPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.store.cert)
	return pool
}

// StoreCACert returns the parsed store CA certificate.
func (p *PKI) StoreCACert() *x509.Certificate { return p.store.cert }

// MemberCertificate issues this member's certificate for the store
// cluster from the store CA (server and client use) with a fresh
// in-memory key, valid one year: DNS names MemberDNSName and host (or
// host as an IP address), MemberURI, the task-signing fingerprint and,
// with Options.SiteKey, the evidence site fingerprint.
func (p *PKI) MemberCertificate(host string) (tls.Certificate, error) {
	return p.memberCertificate(p.store, MemberDNSName, host)
}

func (p *PKI) memberCertificate(ca loadedCA, dnsName, host string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), p.opts.Rand)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: member key: %w", err)
	}
	serial, err := p.serial()
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: %w", err)
	}
	now := p.opts.Clock.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "maas-sidecar store member " + host},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(365 * 24 * time.Hour),
		DNSNames:    []string{dnsName},
		URIs:        []*url.URL{{Scheme: SigningURIScheme, Opaque: p.Fingerprints().Signing}},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	if site := p.Fingerprints().Site; site != "" {
		tmpl.URIs = append(tmpl.URIs, &url.URL{Scheme: SiteURIScheme, Opaque: site})
	}
	if ca.cert == p.store.cert {
		member, _ := url.Parse(MemberURI)
		tmpl.URIs = append(tmpl.URIs, member)
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else if host != "" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: member certificate: %w", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// VerifyMember checks that chain (leaf first) is a store member's: issued
// by the store CA for both server and client use and carrying MemberURI.
// With legacy it also accepts the member certificates of earlier releases
// (LegacyMemberCertificate): issued by the agent CA for PeerDNSName with
// server use (agent certificates have client use only) and this daemon's
// task-signing fingerprint. Errors wrap ErrNotMember.
func (p *PKI) VerifyMember(chain []*x509.Certificate, legacy bool) error {
	if len(chain) == 0 {
		return fmt.Errorf("%w: no certificate", ErrNotMember)
	}
	leaf := chain[0]
	err := p.verifyStoreMember(leaf, chain[1:])
	if err == nil || !legacy {
		return err
	}
	if lerr := p.verifyLegacyMember(leaf); lerr != nil {
		return fmt.Errorf("%w; nor an earlier release's: %v", err, lerr)
	}
	return nil
}

func (p *PKI) verifyStoreMember(leaf *x509.Certificate, rest []*x509.Certificate) error {
	inter := x509.NewCertPool()
	for _, c := range rest {
		inter.AddCert(c)
	}
	for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
		_, err := leaf.Verify(x509.VerifyOptions{Roots: p.StoreCertPool(), Intermediates: inter,
			CurrentTime: p.opts.Clock.Now(), KeyUsages: []x509.ExtKeyUsage{usage}})
		if err != nil {
			return fmt.Errorf("%w: the store CA does not verify %q (%v)", ErrNotMember, leaf.Subject.CommonName, err)
		}
	}
	for _, u := range leaf.URIs {
		if u.String() == MemberURI {
			return nil
		}
	}
	return fmt.Errorf("%w: %q carries no %s identity", ErrNotMember, leaf.Subject.CommonName, MemberURI)
}

// storeAcceptable says whether a peer's list of acceptable CAs names the
// store CA (an empty list accepts any).
func (p *PKI) storeAcceptable(cas [][]byte) bool {
	for _, name := range cas {
		if bytes.Equal(name, p.store.cert.RawSubject) {
			return true
		}
	}
	return len(cas) == 0
}
