package signedbackup_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/store/signedbackup"
)

func sign(t *testing.T, key ed25519.PrivateKey, payload []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := signedbackup.NewWriter(&buf, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range bytes.SplitAfter(payload, []byte("\n")) {
		if _, err := w.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Every single flipped byte, a cut, an appended byte, another key and an
// unsigned file are refused; the good file gives back its payload.
func TestVerify(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(nil)
	otherPub, _, _ := ed25519.GenerateKey(nil)
	payload := bytes.Repeat([]byte("record line\n"), 50)
	good := sign(t, key, payload)
	var out bytes.Buffer
	if err := signedbackup.Verify(bytes.NewReader(good), int64(len(good)), pub, &out); err != nil || !bytes.Equal(out.Bytes(), payload) {
		t.Fatalf("good backup: %v, payload equal %v", err, bytes.Equal(out.Bytes(), payload))
	}
	for i := len(signedbackup.Magic); i < len(good); i++ {
		bad := bytes.Clone(good)
		bad[i] ^= 0x01
		if err := signedbackup.Verify(bytes.NewReader(bad), int64(len(bad)), pub, &bytes.Buffer{}); !errors.Is(err, signedbackup.ErrBadSignature) {
			t.Fatalf("byte %d flipped: %v, want ErrBadSignature", i, err)
		}
	}
	cases := map[string]struct {
		file []byte
		pub  ed25519.PublicKey
		want error
	}{
		"cut short":   {good[:len(good)-1], pub, signedbackup.ErrBadSignature},
		"cut payload": {append(bytes.Clone(good[:len(good)-signedbackup.TrailerSize-5]), good[len(good)-signedbackup.TrailerSize:]...), pub, signedbackup.ErrBadSignature},
		"appended":    {append(bytes.Clone(good), 'x'), pub, signedbackup.ErrBadSignature},
		"other key":   {good, otherPub, signedbackup.ErrBadSignature},
		"unsigned":    {payload, pub, signedbackup.ErrUnsigned},
		"magic only":  {[]byte(signedbackup.Magic), pub, signedbackup.ErrBadSignature},
	}
	for name, c := range cases {
		if err := signedbackup.Verify(bytes.NewReader(c.file), int64(len(c.file)), c.pub, &bytes.Buffer{}); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
