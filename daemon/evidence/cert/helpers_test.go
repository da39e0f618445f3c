package cert_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

func newKey(t *testing.T, seed byte) cert.Signer {
	t.Helper()
	return cert.Signer{Key: ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune('a'+seed)), ed25519.SeedSize)))}
}

func sample(prev string, n int) cert.Certificate {
	return cert.Certificate{
		Node: cert.Node{NodeID: "node-7", MAASSystemID: "abc123", Serials: []string{"1652923000123", "1652923000456"}},
		Predicate: cert.Predicate{
			EvidenceDigest: "sha256:" + strings.Repeat("0", 63) + string(rune('0'+n)),
			Mode:           "soft_reset", StartedAt: t0.Add(time.Duration(n) * time.Hour),
			FinishedAt: t0.Add(time.Duration(n)*time.Hour + 20*time.Minute), RequestedBy: "ops@example.com",
			Checks: []cert.Check{
				{Name: "gpu_health", Verdict: "pass", Where: cert.AfterRedeploy},
				{Name: "processes", Verdict: "pass", Where: cert.InBandTenantOS},
			},
			Erase:    cert.Erase{Method: "none", Canary: cert.NotMeasured},
			GPUs:     cert.GPUSummary{Count: 8, Model: "H100", Diagnostics: "dcgm r2 pass", Where: cert.AfterRedeploy},
			Versions: map[string]string{"driver": "550.90.07", "dcgm": "3.3.6"},
			Previous: prev,
		},
	}
}

// issueChain issues n chained certificates for one node, logging each.
func issueChain(t *testing.T, s cert.Signer, n int) (envs [][]byte, digests []string, log []cert.LogEntry) {
	t.Helper()
	prev := ""
	for i := range n {
		env, d, err := cert.Issue(context.Background(), s, sample(prev, i))
		if err != nil {
			t.Fatal(err)
		}
		envs, digests, prev = append(envs, env), append(digests, d), d
		log = cert.Append(log, d, "node-7")
	}
	return envs, digests, log
}

func signHead(t *testing.T, s cert.Signer, log []cert.LogEntry) []byte {
	t.Helper()
	h, err := cert.SignHead(context.Background(), s, cert.Head("site-1", log, t0))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// envelope is the DSSE envelope's JSON shape, decoded independently of
// the library.
type envelope struct {
	PayloadType string `json:"payloadType"`
	Payload     string `json:"payload"`
	Signatures  []struct {
		KeyID string `json:"keyid"`
		Sig   string `json:"sig"`
	} `json:"signatures"`
}

func decode(t *testing.T, b []byte) (envelope, []byte, []byte) {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	body, err := base64.StdEncoding.DecodeString(e.Payload)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := base64.StdEncoding.DecodeString(e.Signatures[0].Sig)
	if err != nil {
		t.Fatal(err)
	}
	return e, body, sig
}

// withPayload re-encodes env with body in place of its payload, keeping
// the signature.
func withPayload(t *testing.T, env []byte, body []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(env, &m); err != nil {
		t.Fatal(err)
	}
	m["payload"] = base64.StdEncoding.EncodeToString(body)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("verified, want an error containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not say %q", err, p)
		}
	}
}
