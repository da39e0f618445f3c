package wire

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"
)

func testKey(t *testing.T, seed byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	s[0] = seed
	k := ed25519.NewKeyFromSeed(s)
	return k.Public().(ed25519.PublicKey), k
}

func sampleTask() Task {
	return Task{ID: "task-1", NodeID: "node-1", Type: "node.heartbeat_check", Payload: []byte(`{"a":"<b>"}`),
		ExpiresAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Seq: 7}
}

func TestSignVerify(t *testing.T) {
	pub, priv := testKey(t, 1)
	otherPub, _ := testKey(t, 2)
	signed := Sign(priv, sampleTask())
	tests := []struct {
		name   string
		mutate func(*Task)
		pub    ed25519.PublicKey
		ok     bool
	}{
		{"intact", func(*Task) {}, pub, true},
		{"intact after json round trip", func(x *Task) { *x = roundTrip(t, *x) }, pub, true},
		{"other key", func(*Task) {}, otherPub, false},
		{"node id", func(x *Task) { x.NodeID = "node-2" }, pub, false},
		{"task id", func(x *Task) { x.ID = "task-2" }, pub, false},
		{"type", func(x *Task) { x.Type = "node.uninstall" }, pub, false},
		{"payload", func(x *Task) { x.Payload = []byte(`{"a":"<c>"}`) }, pub, false},
		{"expiry", func(x *Task) { x.ExpiresAt = x.ExpiresAt.Add(time.Nanosecond) }, pub, false},
		{"sequence", func(x *Task) { x.Seq++ }, pub, false},
		{"serial added", func(x *Task) { x.CertSerial = "1f" }, pub, false},
		{"signature", func(x *Task) { x.Signature = append([]byte{}, x.Signature...); x.Signature[0] ^= 1 }, pub, false},
		{"no signature", func(x *Task) { x.Signature = nil }, pub, false},
		{"no key", func(*Task) {}, nil, false},
		{"field boundary", func(x *Task) { x.NodeID, x.ID = "node-1task-1", "" }, pub, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := signed
			tc.mutate(&task)
			err := Verify(tc.pub, task)
			if tc.ok != (err == nil) {
				t.Fatalf("Verify() = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrBadSignature) {
				t.Fatalf("Verify() = %v, want ErrBadSignature", err)
			}
		})
	}
}

func TestSignVerifyCertSerial(t *testing.T) {
	pub, priv := testKey(t, 1)
	bound := sampleTask()
	bound.CertSerial = "1f"
	signed := Sign(priv, bound)
	tests := []struct {
		name   string
		serial string
		ok     bool
	}{{"own serial", "1f", true}, {"other serial", "20", false}, {"serial stripped", "", false}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := roundTrip(t, signed)
			task.CertSerial = tc.serial
			if err := Verify(pub, task); tc.ok != (err == nil) {
				t.Fatalf("Verify() = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// TestSigningPayloadWithoutSerialUnchanged pins the payload of a task
// without a serial to the bytes signed before the serial existed, so
// agents and daemons on either side of the change still agree.
func TestSigningPayloadWithoutSerialUnchanged(t *testing.T) {
	const want = "4b7475a06c31b816e80d01a8b3a57196e4886a5cfbb96d84f5d26ebc3f2d6fdd"
	if got := fmt.Sprintf("%x", sha256.Sum256(SigningPayload(sampleTask()))); got != want {
		t.Fatalf("sha256(SigningPayload) = %s, want %s", got, want)
	}
}

func roundTrip(t *testing.T, x Task) Task {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	var out Task
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNodeIDFromCert(t *testing.T) {
	cert := func(cn string, uris ...string) *x509.Certificate {
		c := &x509.Certificate{Subject: pkix.Name{CommonName: cn}}
		for _, u := range uris {
			p, err := url.Parse(u)
			if err != nil {
				t.Fatal(err)
			}
			c.URIs = append(c.URIs, p)
		}
		return c
	}
	tests := []struct {
		name string
		cert *x509.Certificate
		want string
	}{
		{"cn and uri agree", cert("node-1", NodeURI("node-1").String()), "node-1"},
		{"cn only", cert("node-1"), ""},
		{"uri only", cert("", NodeURI("node-1").String()), ""},
		{"disagree", cert("node-1", NodeURI("node-2").String()), ""},
		{"two uris", cert("node-1", NodeURI("node-1").String(), NodeURI("node-1").String()), ""},
		{"other scheme", cert("node-1", "spiffe://x/node-1"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NodeIDFromCert(tc.cert)
			if got != tc.want || (err == nil) != (tc.want != "") {
				t.Fatalf("NodeIDFromCert() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestPaths(t *testing.T) {
	tests := []struct{ got, want string }{
		{WaitPath("n-1"), "/internal/v1/nodes/n-1/tasks/wait"},
		{ResultPath("n-1", "t-1"), "/internal/v1/nodes/n-1/tasks/t-1/result"},
		{RenewPath("n-1"), "/internal/v1/nodes/n-1/certificate/renew"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}
