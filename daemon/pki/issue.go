package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// NodeURIScheme is the URI SAN scheme naming a node in its client
// certificate ("gpuaas-node:<id>"), the same identity the agent protocol
// reads back; the subject CN carries the id too.
const NodeURIScheme = "gpuaas-node"

// SignCSR issues a client certificate for nodeID from a DER certificate
// request. The identity comes from nodeID, never from the request's
// subject; the certificate lives ClientCertTTL. Errors: invalid for a
// malformed or badly signed request.
func (p *PKI) SignCSR(csrDER []byte, nodeID string) ([]byte, error) {
	const op = "pki.SignCSR"
	csr, err := x509.ParseCertificateRequest(csrDER)
	if err != nil {
		return nil, lifecycle.Invalid(op, "csr", "malformed certificate request")
	}
	if err := csr.CheckSignature(); err != nil {
		return nil, lifecycle.Invalid(op, "csr", "certificate request signature does not verify")
	}
	if nodeID == "" || strings.ContainsAny(nodeID, "/ ") {
		return nil, lifecycle.Invalid(op, "node_id", "bad node id")
	}
	serial, err := p.serial()
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	now := p.opts.Clock.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: nodeID, Organization: []string{"gpuaas-node"}},
		URIs:      []*url.URL{{Scheme: NodeURIScheme, Opaque: nodeID}},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(p.opts.ClientCertTTL),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, p.caCert, csr.PublicKey, p.caKey)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	return der, nil
}

// ServerCertificate issues the agent listener's certificate for hosts (DNS
// names or IP addresses) with a fresh in-memory key, valid one year.
func (p *PKI) ServerCertificate(hosts []string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), p.opts.Rand)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: server key: %w", err)
	}
	serial, err := p.serial()
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: %w", err)
	}
	now := p.opts.Clock.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "maas-sidecar agent API"},
		NotBefore: now.Add(-time1m), NotAfter: now.Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(p.opts.Rand, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: server certificate: %w", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
