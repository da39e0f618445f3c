package wire_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// fuzzKey is a fixed task-signing key, so that a corpus entry replays.
var fuzzKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

// FuzzTaskSignature checks the task signature: a signed task verifies,
// also after a JSON round trip (the agent's wire) when its strings are
// UTF-8, and is refused after one when they are not; a signature verifies
// only the exact bytes Sign gives; moving a byte between two fields, or
// changing any field, breaks it.
func FuzzTaskSignature(f *testing.F) {
	f.Add("t-1", "node-0001", wire.TypeStorageCleanup, []byte(`{"mode":"local"}`), int64(1700000000e9), uint64(3), "0a1b", []byte{})
	f.Add("t-1", "node-000", "1"+wire.TypeGPUScrub, []byte(`{}`), int64(-1), uint64(0), "", []byte("x"))
	f.Add("", "", "", []byte(nil), int64(0), ^uint64(0), "", bytes.Repeat([]byte{0}, ed25519.SignatureSize))
	pub := fuzzKey.Public().(ed25519.PublicKey)
	f.Fuzz(func(t *testing.T, id, node, typ string, payload []byte, expires int64, seq uint64, serial string, sig []byte) {
		task := wire.Task{ID: id, NodeID: node, Type: typ, Payload: payload, ExpiresAt: time.Unix(0, expires).In(time.FixedZone("x", 3600)),
			Seq: seq, CertSerial: serial, Signature: sig}
		signed := wire.Sign(fuzzKey, task)
		if err := wire.Verify(pub, signed); err != nil {
			t.Fatalf("a signed task does not verify: %v", err)
		}
		if (wire.Verify(pub, task) == nil) != bytes.Equal(sig, signed.Signature) {
			t.Fatalf("signature %x verifies %v; Sign gives %x", sig, wire.Verify(pub, task) == nil, signed.Signature)
		}
		b, err := json.Marshal(signed)
		if err != nil {
			t.Fatal(err)
		}
		var back wire.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("a signed task does not decode: %v", err)
		}
		// JSON carries only UTF-8: a string field that is not has its bad
		// bytes replaced on the wire, and the task must then be refused.
		utf := utf8.ValidString(id + node + typ + serial)
		if err := wire.Verify(pub, back); (err == nil) != utf {
			t.Fatalf("after a JSON round trip (UTF-8 %v) verify says %v\n%s", utf, err, b)
		}
		for name, changed := range tampered(signed) {
			if wire.Verify(pub, changed) == nil {
				t.Fatalf("%s still verifies", name)
			}
		}
	})
}

// tampered returns t with one change each that its signature must not cover.
func tampered(t wire.Task) map[string]wire.Task {
	out := map[string]wire.Task{}
	add := func(name string, f func(*wire.Task)) {
		c := t
		f(&c)
		out[name] = c
	}
	add("seq+1", func(c *wire.Task) { c.Seq++ })
	add("expiry+1ns", func(c *wire.Task) { c.ExpiresAt = c.ExpiresAt.Add(1) })
	add("payload+byte", func(c *wire.Task) { c.Payload = append(append([]byte(nil), c.Payload...), ' ') })
	add("type+byte", func(c *wire.Task) { c.Type += "x" })
	add("serial changed", func(c *wire.Task) { c.CertSerial += "0" })
	if t.ID != "" {
		add("id's last byte moved to the node id", func(c *wire.Task) {
			c.ID, c.NodeID = t.ID[:len(t.ID)-1], t.ID[len(t.ID)-1:]+t.NodeID
		})
	}
	if t.NodeID != "" {
		add("node id's last byte moved to the type", func(c *wire.Task) {
			c.NodeID, c.Type = t.NodeID[:len(t.NodeID)-1], t.NodeID[len(t.NodeID)-1:]+t.Type
		})
	}
	return out
}

// FuzzTaskDecode checks the agent's decode of a task from the daemon: any
// bytes are refused or give a task that encodes and decodes to itself,
// whose signature verifies after the round trip exactly when it did
// before.
func FuzzTaskDecode(f *testing.F) {
	good, _ := json.Marshal(wire.Sign(fuzzKey, wire.Task{ID: "t-1", NodeID: "n", Type: wire.TypeGPUScrub, Payload: []byte(`{}`),
		ExpiresAt: time.Unix(1700000000, 5), Seq: 1}))
	f.Add(good)
	f.Add([]byte(`{"id":"t","payload":"not base64!","expires_at":"2024-01-02T03:04:05Z"}`))
	f.Add([]byte(`{"expires_at":"10000-01-01T00:00:00Z"}`))
	f.Add([]byte(`{"seq":-1}`))
	f.Add([]byte(`null`))
	pub := fuzzKey.Public().(ed25519.PublicKey)
	f.Fuzz(func(t *testing.T, body []byte) {
		var task wire.Task
		if json.Unmarshal(body, &task) != nil {
			return
		}
		ok := wire.Verify(pub, task) == nil
		b, err := json.Marshal(task)
		if err != nil {
			return // a time outside RFC 3339's years: such a task never verifies, see below
		}
		var back wire.Task
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("a decoded task does not decode again: %v\n%s", err, b)
		}
		if (wire.Verify(pub, back) == nil) != ok || !back.ExpiresAt.Equal(task.ExpiresAt) || back.Seq != task.Seq ||
			!bytes.Equal(back.Payload, task.Payload) || back.ID != task.ID {
			t.Fatalf("round trip changed the task: %+v, then %+v", task, back)
		}
	})
}
