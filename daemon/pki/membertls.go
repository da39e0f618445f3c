package pki

import "crypto/tls"

// MemberTLS is the TLS a store member listens and dials with.
type MemberTLS struct {
	Listen, Dial *tls.Config
	// Self is the store CA certificate this member presents; Legacy says
	// whether it also accepts and presents the agent-CA member
	// certificates of earlier releases (a cluster moving to the store CA).
	Self   tls.Certificate
	Legacy bool
}

// NewMemberTLS builds the member port's TLS for host. Both ends check the
// other's certificate with VerifyMember: a listening member refuses any
// client certificate that is not a store member's (an agent's, one of
// another CA) during the handshake, before any request, and a dialing
// member refuses a server that is not one. With legacy, the member also
// presents LegacyMemberCertificate to peers that ask for the agent CA
// (client side) or dial under PeerDNSName (server side).
func (p *PKI) NewMemberTLS(host string, legacy bool) (MemberTLS, error) {
	self, err := p.MemberCertificate(host)
	if err != nil {
		return MemberTLS{}, err
	}
	old := self
	if legacy {
		if old, err = p.LegacyMemberCertificate(host); err != nil {
			return MemberTLS{}, err
		}
	}
	verify := func(cs tls.ConnectionState) error { return p.VerifyMember(cs.PeerCertificates, legacy) }
	clientCAs := p.StoreCertPool()
	if legacy {
		clientCAs.AddCert(p.caCert)
	}
	listen := &tls.Config{
		MinVersion: tls.VersionTLS12, ClientAuth: tls.RequireAnyClientCert, ClientCAs: clientCAs,
		VerifyConnection: verify,
		GetCertificate: func(hi *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if legacy && hi.ServerName == PeerDNSName {
				return &old, nil
			}
			return &self, nil
		},
	}
	dial := &tls.Config{
		MinVersion: tls.VersionTLS12, ServerName: MemberDNSName,
		// Verified by VerifyConnection against the store CA alone.
		InsecureSkipVerify: true,
		VerifyConnection:   verify,
		GetClientCertificate: func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			if legacy && !p.storeAcceptable(cri.AcceptableCAs) {
				return &old, nil
			}
			return &self, nil
		},
	}
	return MemberTLS{Listen: listen, Dial: dial, Self: self, Legacy: legacy}, nil
}
