// Package mtls is the agent's transport to the daemon's agent API: HTTPS
// trusting only the daemon's CA, presenting the agent's current client
// certificate (swapped in place after enrollment or renewal), JSON bodies
// of agent/wire, and *wire.Problem for every non-2xx answer.
package mtls

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Client implements the agent's Transport.
type Client struct {
	base string
	http *http.Client
	tr   *http.Transport
	mu   sync.RWMutex
	cert *tls.Certificate
	// clock reads the time an HTTP-date Retry-After counts from.
	clock clockwork.Clock
}

// New returns a client for the API at baseURL trusting caPEM only, with
// clock for the time (the real clock when nil).
func New(baseURL string, caPEM []byte, clock clockwork.Clock) (*Client, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("mtls: CA bundle holds no certificate")
	}
	if _, err := url.Parse(baseURL); err != nil {
		return nil, errors.New("mtls: bad API URL")
	}
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	c := &Client{base: strings.TrimRight(baseURL, "/"), clock: clock}
	c.tr = &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13, GetClientCertificate: c.clientCert},
		MaxIdleConns:    2, IdleConnTimeout: 90 * time.Second, TLSHandshakeTimeout: 10 * time.Second,
		ResponseHeaderTimeout: 0, ForceAttemptHTTP2: false,
	}
	c.http = &http.Client{Transport: c.tr}
	return c, nil
}

func (c *Client) clientCert(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.cert == nil {
		return &tls.Certificate{}, nil
	}
	return c.cert, nil
}

// SetIdentity presents cert from now on (nil: none) and drops pooled
// connections made with the old one.
func (c *Client) SetIdentity(cert *tls.Certificate) {
	c.mu.Lock()
	c.cert = cert
	c.mu.Unlock()
	c.tr.CloseIdleConnections()
}
