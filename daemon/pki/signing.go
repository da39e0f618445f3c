package pki

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
)

// SignTask signs a task's canonical signing payload with the ed25519
// task-signing key.
func (p *PKI) SignTask(msg []byte) []byte { return ed25519.Sign(p.signKey, msg) }

// SigningPublicKey returns the task-signing public key the agents verify.
func (p *PKI) SigningPublicKey() ed25519.PublicKey {
	return p.signKey.Public().(ed25519.PublicKey)
}

// SigningPublicKeyPEM returns the public key as a PKIX PEM block, the form
// cloud-init hands the agent.
func (p *PKI) SigningPublicKeyPEM() []byte {
	der, _ := x509.MarshalPKIXPublicKey(p.SigningPublicKey())
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}
