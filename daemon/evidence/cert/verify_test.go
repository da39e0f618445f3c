package cert_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func TestCertificateVerifiesWithThePublicKeyAlone(t *testing.T) {
	s := newKey(t, 0)
	env, digest, err := cert.Issue(context.Background(), s, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := cert.ParsePublicKeys(cert.EncodePublicKeys(s.Public()))
	if err != nil {
		t.Fatal(err)
	}
	v, err := cert.Verify(context.Background(), env, pub)
	if err != nil {
		t.Fatal(err)
	}
	if v.Digest != digest || v.Retired || v.KeyID != cert.KeyID(s.Public()) {
		t.Fatalf("verified %+v, want digest %s by the current key", v, digest)
	}
	got, want := v.Certificate, sample("", 1)
	if got.Node.NodeID != want.Node.NodeID || got.Node.MAASSystemID != want.Node.MAASSystemID ||
		!slices.Equal(got.Node.Serials, want.Node.Serials) || got.Predicate.Checks[1].Where != cert.InBandTenantOS ||
		got.Predicate.Erase.Canary != cert.NotMeasured || !got.Predicate.FinishedAt.Equal(want.Predicate.FinishedAt) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
}

func TestEveryChangedPayloadByteFailsTheSignature(t *testing.T) {
	s := newKey(t, 0)
	env, _, err := cert.Issue(context.Background(), s, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := decode(t, env)
	for i := 0; i < len(body); i += 7 {
		changed := bytes.Clone(body)
		changed[i] ^= 0x01
		_, err := cert.Verify(context.Background(), withPayload(t, env, changed), []ed25519.PublicKey{s.Public()})
		wantErr(t, err, "does not verify", "altered")
	}
}

func TestAChangedByteInTheFileIsRefused(t *testing.T) {
	s := newKey(t, 0)
	env, _, err := cert.Issue(context.Background(), s, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(env, []byte(`"payload":"`)) + len(`"payload":"`) + 40
	env[i] ^= 0x01 // a base64 letter of the payload
	if _, err := cert.Verify(context.Background(), env, []ed25519.PublicKey{s.Public()}); err == nil {
		t.Fatal("a certificate with a changed byte verified")
	}
}

func TestAWrongKeyIsNamed(t *testing.T) {
	s, other := newKey(t, 0), newKey(t, 1)
	env, _, err := cert.Issue(context.Background(), s, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cert.Verify(context.Background(), env, []ed25519.PublicKey{other.Public()})
	wantErr(t, err, "signed by key "+cert.KeyID(s.Public()), "not in the key set", cert.KeyID(other.Public()))
}

func TestASignatureForgedUnderTheRightKeyIDFails(t *testing.T) {
	s, other := newKey(t, 0), newKey(t, 1)
	env, _, err := cert.Issue(context.Background(), other, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	// claim the site key's id on a signature made with another key
	env = bytes.Replace(env, []byte(cert.KeyID(other.Public())), []byte(cert.KeyID(s.Public())), 1)
	_, err = cert.Verify(context.Background(), env, []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "does not verify")
}

func TestNoKeysIsRefused(t *testing.T) {
	env, _, err := cert.Issue(context.Background(), newKey(t, 0), sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cert.Verify(context.Background(), env, nil)
	wantErr(t, err, "no public key")
}

func TestIssueRefusesACertificateWithoutItsNode(t *testing.T) {
	c := sample("", 1)
	c.Node.MAASSystemID = ""
	_, _, err := cert.Issue(context.Background(), newKey(t, 0), c)
	wantErr(t, err, "MAAS system id")
}
