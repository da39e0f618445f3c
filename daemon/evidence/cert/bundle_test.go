package cert_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func bundle(t *testing.T, envs [][]byte, log []cert.LogEntry, head []byte) []byte {
	t.Helper()
	b := cert.Bundle{Log: &cert.BundleLog{Entries: log, Head: head}}
	for _, e := range envs {
		b.Certificates = append(b.Certificates, e)
	}
	out, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestABundleVerifiesSignaturesChainAndLog(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, log := issueChain(t, s, 3)
	report, err := cert.VerifyFile(context.Background(), bundle(t, envs, log, signHead(t, s, log)), []ed25519.PublicKey{s.Public()})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(report, "\n")
	for _, want := range []string{"chain: 3 certificates", "log: " + digests[2] + " is entry 2 of 3", "signature OK (current key"} {
		if !strings.Contains(text, want) {
			t.Fatalf("report\n%s\ndoes not say %q", text, want)
		}
	}
}

func TestABundleWhoseCertificateIsMissingFromTheLogFails(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, log := issueChain(t, s, 3)
	short := log[:2]
	_, err := cert.VerifyFile(context.Background(), bundle(t, envs, short, signHead(t, s, short)), []ed25519.PublicKey{s.Public()})
	wantErr(t, err, digests[2], "not in the log")
}

func TestASingleEnvelopeSaysWhatWasNotChecked(t *testing.T) {
	s := newKey(t, 0)
	envs, _, _ := issueChain(t, s, 1)
	report, err := cert.VerifyFile(context.Background(), envs[0], []ed25519.PublicKey{s.Public()})
	if err != nil || !strings.Contains(strings.Join(report, "\n"), "chain and log not checked") {
		t.Fatalf("report %q, %v", report, err)
	}
	_, err = cert.VerifyFile(context.Background(), []byte(`{"certificates":[]}`), []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "neither a DSSE envelope nor a bundle")
}
