package agent

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// loadState reads the identity and sequence high-water mark, if any.
func (a *Agent) loadState() error {
	seq, err := a.o.State.HighWater()
	if err != nil {
		return err
	}
	a.seq = seq
	cert, err := a.o.State.Identity()
	if errors.Is(err, state.ErrNoIdentity) {
		return nil
	}
	if err != nil {
		return err
	}
	if id, err := wire.NodeIDFromCert(cert.Leaf); err != nil || id != a.o.Config.NodeID {
		a.log.Warn("stored certificate names another node; enrolling again")
		return nil
	}
	a.cert = cert
	a.o.Transport.SetIdentity(cert)
	return nil
}

// forget drops the identity so the next step enrolls.
func (a *Agent) forget() {
	a.cert = nil
	a.o.Transport.SetIdentity(nil)
	if err := a.o.State.DropIdentity(); err != nil {
		a.log.Warn("could not remove the old identity", "err", err)
	}
}

// enroll makes a key for token (or reuses the one an earlier attempt
// with it saved) and enrolls. On success the new identity replaces any
// old one, the spent token file is removed and a refusal ends; a token
// the daemon refuses for good is not sent again, and an expired one is
// renewed (renewToken).
func (a *Agent) enroll(ctx context.Context, token string) error {
	keyPEM, csrPEM, err := a.enrollmentKey(token)
	if err != nil {
		return err
	}
	req := wire.EnrollRequest{NodeID: a.o.Config.NodeID, Token: token, CSR: csrPEM}
	if a.o.Inventory != nil {
		a.tools.Lock()
		req.Inventory = a.o.Inventory(ctx, a.env())
		a.tools.Unlock()
	}
	resp, err := a.o.Transport.Enroll(ctx, req)
	if tokenExpired(err) {
		return a.renewToken(ctx, token)
	}
	if permanentRefusal(err) {
		return a.tokenRefused(token, err)
	}
	if err != nil {
		return fmt.Errorf("enroll: %w", err)
	}
	if err := a.adopt(keyPEM, resp); err != nil {
		return err
	}
	if err := a.o.State.DropPendingKey(); err != nil {
		a.log.Warn("could not remove the pending enrollment key", "err", err)
	}
	a.dropToken(token)
	a.refusal = ""
	a.stats.refused.Store(false)
	a.stats.enrollments.Add(1)
	a.o.Observer.Enrolled(a.o.Clock.Now())
	a.contacted()
	a.log.Info("agent enrolled", "serial", resp.Serial, "not_after", resp.NotAfter)
	return nil
}

// renewDue: two thirds of the certificate's lifetime have passed.
func (a *Agent) renewDue(now time.Time) bool {
	l := a.cert.Leaf
	return !now.Before(l.NotBefore.Add(l.NotAfter.Sub(l.NotBefore) * 2 / 3))
}

func (a *Agent) renew(ctx context.Context) error {
	keyPEM, csrPEM, err := newKeyAndCSR()
	if err != nil {
		return err
	}
	resp, err := a.o.Transport.Renew(ctx, a.o.Config.NodeID, wire.RenewRequest{CSR: csrPEM})
	if err != nil {
		return fmt.Errorf("renew: %w", err)
	}
	if err := a.adopt(keyPEM, resp); err != nil {
		return err
	}
	a.stats.renewals.Add(1)
	a.contacted()
	a.log.Info("agent certificate renewed", "serial", resp.Serial, "not_after", resp.NotAfter)
	return nil
}

// adopt checks the issued certificate, stores it and presents it.
func (a *Agent) adopt(keyPEM []byte, resp wire.CertResponse) error {
	cert, err := tls.X509KeyPair([]byte(resp.Certificate), keyPEM)
	if err == nil && cert.Leaf == nil {
		cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0])
	}
	if err != nil {
		return fmt.Errorf("adopt certificate: %w", err)
	}
	if id, err := wire.NodeIDFromCert(cert.Leaf); err != nil || id != a.o.Config.NodeID {
		return errors.New("adopt certificate: it does not name this node")
	}
	if err := a.o.State.SaveIdentity(keyPEM, []byte(resp.Certificate), []byte(resp.CABundle)); err != nil {
		return err
	}
	a.cert = &cert
	a.o.Transport.SetIdentity(&cert)
	return nil
}

// enrollmentKey returns the key (and a CSR for it) to enroll with token:
// the one saved for this token by an earlier attempt, else a new one,
// saved before it is sent, so every retry with one token uses one key.
func (a *Agent) enrollmentKey(token string) (keyPEM []byte, csrPEM string, err error) {
	digest := []byte(fmt.Sprintf("%x", sha256.Sum256([]byte(token))))
	keyPEM, err = a.o.State.PendingKey(digest)
	if err != nil {
		return nil, "", err
	}
	if keyPEM == nil {
		if keyPEM, _, err = newKeyAndCSR(); err != nil {
			return nil, "", err
		}
		if err := a.o.State.SavePendingKey(digest, keyPEM); err != nil {
			return nil, "", err
		}
	}
	blk, _ := pem.Decode(keyPEM)
	if blk == nil {
		return nil, "", errors.New("agent key: pending key is not PEM")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, "", fmt.Errorf("agent key: %w", err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, "", errors.New("agent key: pending key is not ECDSA")
	}
	csr, err := csrFor(key)
	return keyPEM, csr, err
}

func newKeyAndCSR() (keyPEM []byte, csrPEM string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", fmt.Errorf("agent key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, "", fmt.Errorf("agent key: %w", err)
	}
	csrPEM, err = csrFor(key)
	if err != nil {
		return nil, "", err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), csrPEM, nil
}

func csrFor(key *ecdsa.PrivateKey) (string, error) {
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	if err != nil {
		return "", fmt.Errorf("agent csr: %w", err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csr})), nil
}

// serial is the current certificate's serial as the daemon records it
// (lower-case hex), or "" without one.
func (a *Agent) serial() string {
	if a.cert == nil || a.cert.Leaf == nil {
		return ""
	}
	return a.cert.Leaf.SerialNumber.Text(16)
}
