package cert_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

// pae is the DSSE v1 pre-authentication encoding, written from the
// specification: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body.
func pae(payloadType string, body []byte) []byte {
	return append([]byte(fmt.Sprintf("DSSEv1 %d %s %d ", len(payloadType), payloadType, len(body))), body...)
}

// opensslVerify runs OpenSSL's own Ed25519 verification of sig over msg.
func opensslVerify(t *testing.T, pubPEM, msg, sig []byte) error {
	t.Helper()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"pub.pem": pubPEM, "pae": msg, "sig": sig} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("openssl", "pkeyutl", "-verify", "-rawin", "-pubin", "-inkey", "pub.pem", "-sigfile", "sig", "-in", "pae")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	if !bytes.Contains(out, []byte("Signature Verified Successfully")) {
		return fmt.Errorf("openssl said %q", out)
	}
	return nil
}

func TestTheEnvelopeVerifiesWithOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Fatal("openssl (3.x) is required: ", err)
	}
	s := newKey(t, 0)
	env, _, err := cert.Issue(context.Background(), s, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	e, body, sig := decode(t, env)
	pub := cert.EncodePublicKeys(s.Public()) // the published form
	if err := opensslVerify(t, pub, pae(e.PayloadType, body), sig); err != nil {
		t.Fatalf("openssl refused the daemon's certificate: %v", err)
	}
	changed := bytes.Clone(body)
	changed[len(changed)/2] ^= 0x01
	if err := opensslVerify(t, pub, pae(e.PayloadType, changed), sig); err == nil {
		t.Fatal("openssl verified a certificate with one changed byte")
	}
}
