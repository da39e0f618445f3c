package pki

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
)

// PeerDNSName is the first DNS name of the member certificates of earlier
// releases, which the agent CA issued (LegacyMemberCertificate); members
// of those releases dial each other under it.
const PeerDNSName = "maas-sidecar-store"

// SigningURIScheme is the URI SAN scheme of a member certificate that
// carries the fingerprint of its daemon's task-signing key
// ("maas-sidecar-signing:<hex SHA-256 of the public key>"), so that a
// member can see before joining that a peer signs tasks with its key.
const SigningURIScheme = "maas-sidecar-signing"

// SiteURIScheme is the URI SAN scheme of a member certificate that
// carries the fingerprint of its daemon's evidence site key
// ("maas-sidecar-evidence-site:<hex SHA-256 of the public key>"), so
// that every member of a cluster signs clean certificates with one key.
const SiteURIScheme = "maas-sidecar-evidence-site"

// Fingerprints are the public identities that every member of a cluster
// must share: the CA certificates, the task-signing public key and the
// evidence site public key.
type Fingerprints struct {
	CA      string // hex SHA-256 of the agent CA certificate (DER)
	StoreCA string // hex SHA-256 of the store CA certificate (DER)
	Signing string // hex SHA-256 of the task-signing public key
	Site    string // hex SHA-256 of the evidence site public key; "" when none
}

// Fingerprints returns this PKI's fingerprints.
func (p *PKI) Fingerprints() Fingerprints {
	ca := sha256.Sum256(p.caCert.Raw)
	st := sha256.Sum256(p.store.cert.Raw)
	sg := sha256.Sum256(p.SigningPublicKey())
	f := Fingerprints{CA: hex.EncodeToString(ca[:]), StoreCA: hex.EncodeToString(st[:]), Signing: hex.EncodeToString(sg[:])}
	if len(p.opts.SiteKey) > 0 {
		si := sha256.Sum256(p.opts.SiteKey)
		f.Site = hex.EncodeToString(si[:])
	}
	return f
}

// CertPool is a pool holding the agent CA certificate alone.
func (p *PKI) CertPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.caCert)
	return pool
}

// LegacyMemberCertificate issues the member certificate of earlier
// releases from the agent CA (DNS name PeerDNSName), which a member
// presents only while a cluster moves to the store CA
// (store.dqlite.member_trust: transition) so that members not yet
// upgraded keep talking to it.
func (p *PKI) LegacyMemberCertificate(host string) (tls.Certificate, error) {
	return p.memberCertificate(loadedCA{p.caKey, p.caCert, p.caPEM}, PeerDNSName, host)
}

func (p *PKI) verifyLegacyMember(leaf *x509.Certificate) error {
	_, err := leaf.Verify(x509.VerifyOptions{Roots: p.CertPool(), DNSName: PeerDNSName,
		CurrentTime: p.opts.Clock.Now(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		return err
	}
	if !p.signsLikeMe(leaf) {
		return errors.New("it carries another task-signing fingerprint")
	}
	return nil
}

func (p *PKI) signsLikeMe(leaf *x509.Certificate) bool {
	for _, u := range leaf.URIs {
		if u.Scheme == SigningURIScheme && u.Opaque == p.Fingerprints().Signing {
			return true
		}
	}
	return false
}

// otherSite returns the evidence site fingerprint leaf carries when it
// differs from this daemon's and from its retired keys' ("" when it is
// one of them, or when either carries none: members of earlier releases
// have no site key, and with the key in Vault there is nothing to
// compare).
func (p *PKI) otherSite(leaf *x509.Certificate) string {
	mine := p.Fingerprints().Site
	for _, u := range leaf.URIs {
		if u.Scheme == SiteURIScheme && mine != "" && u.Opaque != mine && !p.retiredSite(u.Opaque) {
			return u.Opaque
		}
	}
	return ""
}

// retiredSite is whether fp is the fingerprint of a retired site key.
func (p *PKI) retiredSite(fp string) bool {
	for _, k := range p.opts.RetiredSiteKeys {
		if sum := sha256.Sum256(k); hex.EncodeToString(sum[:]) == fp {
			return true
		}
	}
	return false
}

// ErrPeerMismatch is wrapped by CheckPeer's answer for a peer whose store
// CA, task-signing key or evidence site key differs from this daemon's.
var ErrPeerMismatch = errors.New("the member does not share this daemon's store CA, task-signing key and evidence site key")

// CheckPeer dials the member at addr with this member's TLS (m), reads
// the certificate it presents and checks, before this daemon joins it,
// that it is a store member's (VerifyMember, legacy ones accepted as m
// does) carrying this daemon's task-signing fingerprint and no other
// evidence site fingerprint than this daemon's. A peer that
// cannot be reached is an error that does not wrap ErrPeerMismatch.
func (p *PKI) CheckPeer(ctx context.Context, addr string, m MemberTLS) error {
	var chain []*x509.Certificate
	cfg := m.Dial.Clone()
	// the chain is verified below, with messages that say what differs
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		chain = cs.PeerCertificates
		return nil
	}
	conn, err := (&tls.Dialer{Config: cfg, NetDialer: &net.Dialer{}}).DialContext(ctx, "tcp", addr)
	if err == nil {
		conn.Close()
	}
	if len(chain) == 0 {
		return fmt.Errorf("pki: member %s: no certificate read: %v", addr, err)
	}
	if err := p.VerifyMember(chain, m.Legacy); err != nil {
		return fmt.Errorf("%w: member %s presents a certificate that this daemon's store CA (SHA-256 %s) does not accept (%v)",
			ErrPeerMismatch, addr, p.Fingerprints().StoreCA, err)
	}
	if !p.signsLikeMe(chain[0]) {
		return fmt.Errorf("%w: member %s signs agent tasks with another key than this daemon's (SHA-256 %s)",
			ErrPeerMismatch, addr, p.Fingerprints().Signing)
	}
	if other := p.otherSite(chain[0]); other != "" {
		return fmt.Errorf("%w: member %s signs clean certificates with another evidence site key (evidence-site.key, SHA-256 %s) than this daemon's (SHA-256 %s)",
			ErrPeerMismatch, addr, other, p.Fingerprints().Site)
	}
	return nil
}
