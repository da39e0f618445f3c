package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

// evidenceFiles writes a two-certificate bundle signed by a site key and
// site.pub, and returns their paths and the bundle.
func evidenceFiles(t *testing.T, dir string) (bundlePath, pubPath string, b cert.Bundle) {
	t.Helper()
	s := cert.Signer{Key: ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))}
	var log []cert.LogEntry
	prev := ""
	for i := range 2 {
		c := cert.Certificate{Node: cert.Node{NodeID: "n1", MAASSystemID: "sys1"}, Predicate: cert.Predicate{
			Mode: "reimage", FinishedAt: time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC), Previous: prev,
			Erase: cert.Erase{Method: "none", Canary: cert.NotMeasured}}}
		env, d, err := cert.Issue(context.Background(), s, c)
		if err != nil {
			t.Fatal(err)
		}
		b.Certificates, prev, log = append(b.Certificates, env), d, cert.Append(log, d, "n1")
	}
	head, err := cert.SignHead(context.Background(), s, cert.Head("site-1", log, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	b.Log = &cert.BundleLog{Entries: log, Head: head}
	bundlePath, pubPath = filepath.Join(dir, "n1.json"), filepath.Join(dir, "site.pub")
	writeJSON(t, bundlePath, b)
	if err := os.WriteFile(pubPath, cert.EncodePublicKeys(s.Public()), 0o644); err != nil {
		t.Fatal(err)
	}
	return bundlePath, pubPath, b
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEvidenceVerifyAcceptsAnExportedBundleOffline(t *testing.T) {
	bundle, pub, _ := evidenceFiles(t, t.TempDir())
	var out, errb bytes.Buffer
	if code := run([]string{"evidence", "verify", bundle, "--key", pub}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"chain: 2 certificates", "is entry 1 of 2", "VERIFIED"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output\n%s\ndoes not say %q", out.String(), want)
		}
	}
}

func TestEvidenceVerifyExplainsARemovedCertificate(t *testing.T) {
	dir := t.TempDir()
	bundle, pub, b := evidenceFiles(t, dir)
	b.Certificates = b.Certificates[1:]
	writeJSON(t, bundle, b)
	var out, errb bytes.Buffer
	if code := run([]string{"evidence", "verify", "--key", pub, bundle}, &out, &errb); code != exitFail {
		t.Fatalf("exit %d, want %d: %s", code, exitFail, errb.String())
	}
	if !strings.Contains(errb.String(), "NOT VERIFIED") || !strings.Contains(errb.String(), "start is missing") {
		t.Fatalf("stderr %q does not explain the gap", errb.String())
	}
}

func TestEvidenceVerifyCommandLineErrorsNameTheValue(t *testing.T) {
	bundle, _, _ := evidenceFiles(t, t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"evidence", "verify", bundle}, "--key site.pub is required"},
		{[]string{"evidence", "verify", "--key", "x.pub"}, "want exactly one FILE"},
		{[]string{"evidence", "verify", bundle, "--key", bundle}, "no PEM public key"},
		{[]string{"evidence", "check"}, "usage: maas-sidecar evidence verify"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), exitUsage, tc.want)
		}
	}
}
