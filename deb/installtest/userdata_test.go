//go:build integration

package installtest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/cloudinit"
)

// agentPart is the cloud-config part of rendered user-data that installs
// the agent: the files cloud-init writes and the commands it runs.
type agentPart struct {
	WriteFiles []struct {
		Path        string `yaml:"path"`
		Permissions string `yaml:"permissions"`
		Content     string `yaml:"content"`
	} `yaml:"write_files"`
	RunCmd [][]string `yaml:"runcmd"`
}

// renderAgentPart renders a node's user-data exactly as the daemon does,
// through cloudinit.Renderer, with the agent package at url pinned by
// sum, and returns the part that writes the agent's config.
func renderAgentPart(t *testing.T, url, sum string) agentPart {
	t.Helper()
	ud, err := cloudinit.Renderer{}.Render(cloudinit.Params{
		NodeID:     "node-0001",
		DeployUser: cloudinit.DeployUser{Name: "hpcadmin", Password: "install-test"},
		Agent: cloudinit.Agent{
			PackageURL: url, PackageSHA256: sum,
			APIURL:          "https://sidecar.example.net:5291",
			EnrollmentToken: "enroll-install-test",
			CABundlePEM:     testCA(t), SigningPublicKey: testSigningKey(t),
		},
		HardwareSync: cloudinit.HardwareSync{
			RackURL: "http://10.20.0.2:5248/MAAS", SystemID: "x7rkfa",
			ConsumerKey: "ck", TokenKey: "tk", TokenSecret: "ts",
		},
	})
	if err != nil {
		t.Fatalf("render user-data: %v", err)
	}
	for _, body := range mimeParts(t, ud) {
		var p agentPart
		if err := yaml.Unmarshal(body, &p); err != nil {
			t.Fatalf("decode a cloud-config part: %v", err)
		}
		for _, f := range p.WriteFiles {
			if f.Path == cloudinit.AgentConfigPath {
				return p
			}
		}
	}
	t.Fatalf("no user-data part writes %s", cloudinit.AgentConfigPath)
	return agentPart{}
}

// apply does what cloud-init does with the part inside the root: write
// the files with their modes, then run each command; it returns the
// first failing command's output and error.
func (p agentPart) apply(r *root) (string, error) {
	r.t.Helper()
	for _, f := range p.WriteFiles {
		mode, err := strconv.ParseUint(f.Permissions, 8, 32)
		if err != nil {
			r.t.Fatalf("%s: permissions %q: %v", f.Path, f.Permissions, err)
		}
		r.write(f.Path, f.Content, os.FileMode(mode))
	}
	var all strings.Builder
	for _, argv := range p.RunCmd {
		out, err := r.try(argv...)
		all.WriteString(out)
		if err != nil {
			return all.String(), err
		}
	}
	return all.String(), nil
}

// mimeParts returns the bodies of a multipart/mixed message.
func mimeParts(t *testing.T, msg []byte) [][]byte {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(string(msg)))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if enc := p.Header.Get("Content-Transfer-Encoding"); enc != "7bit" {
			t.Fatalf("part %s: encoding %s, this test reads 7bit only", p.FileName(), enc)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
}

// testCA is a self-signed CA certificate, PEM.
func testCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "install test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// testSigningKey is an ed25519 public key, PEM (PKIX).
func testSigningKey(t *testing.T) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
