package wire

import (
	"crypto/x509"
	"errors"
	"net/url"
	"strings"
)

// NodeURIScheme is the scheme of the URI SAN that names a node in its
// client certificate: "gpuaas-node:<node id>". The subject CN carries the
// same id; both must agree.
const NodeURIScheme = "gpuaas-node"

// NodeURI returns the URI SAN for node id.
func NodeURI(id string) *url.URL { return &url.URL{Scheme: NodeURIScheme, Opaque: id} }

// NodeIDFromCert returns the node id a client certificate names, or an
// error when the CN and the node URI SAN are missing or disagree.
func NodeIDFromCert(c *x509.Certificate) (string, error) {
	var ids []string
	for _, u := range c.URIs {
		if u.Scheme == NodeURIScheme {
			ids = append(ids, u.Opaque)
		}
	}
	cn := c.Subject.CommonName
	if len(ids) != 1 || ids[0] == "" || ids[0] != cn || strings.ContainsAny(cn, "/ ") {
		return "", errors.New("certificate does not name exactly one node")
	}
	return cn, nil
}
