package cert_test

import (
	"context"
	"crypto/ed25519"
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func TestTheLogVerifiesAndIncludesEveryCertificate(t *testing.T) {
	s := newKey(t, 0)
	_, digests, log := issueChain(t, s, 3)
	head, err := cert.VerifyHead(context.Background(), signHead(t, s, log), []ed25519.PublicKey{s.Public()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.CheckLog(log, head); err != nil {
		t.Fatal(err)
	}
	for i, d := range digests {
		if got, err := cert.Inclusion(log, d); err != nil || got != uint64(i) {
			t.Fatalf("inclusion of %s = %d, %v; want %d", d, got, err, i)
		}
	}
	_, err = cert.Inclusion(log, "sha256:00")
	wantErr(t, err, "not in the log")
}

func TestAReorderedLogShows(t *testing.T) {
	s := newKey(t, 0)
	_, _, log := issueChain(t, s, 3)
	head, err := cert.VerifyHead(context.Background(), signHead(t, s, log), []ed25519.PublicKey{s.Public()})
	if err != nil {
		t.Fatal(err)
	}
	swapped := slices.Clone(log)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	wantErr(t, cert.CheckLog(swapped, head), "position 0 has index 1", "reordered")

	// renumbered and rehashed by whoever reordered it: the signed head shows
	var rebuilt []cert.LogEntry
	for _, i := range []int{1, 0, 2} {
		rebuilt = cert.Append(rebuilt, log[i].Certificate, log[i].NodeID)
	}
	wantErr(t, cert.CheckLog(rebuilt, head), "does not match the signed head")
}

func TestAnAlteredOrCutLogShows(t *testing.T) {
	s := newKey(t, 0)
	_, _, log := issueChain(t, s, 3)
	head := cert.Head("site-1", log, t0)
	altered := slices.Clone(log)
	altered[1].Certificate = "sha256:ff"
	wantErr(t, cert.CheckLog(altered, head), "log entry 1", "does not chain")
	wantErr(t, cert.CheckLog(log[:2], head), "does not match the signed head")
}

func TestALogHeadSignedByAnotherKeyIsRefused(t *testing.T) {
	s, other := newKey(t, 0), newKey(t, 1)
	_, _, log := issueChain(t, s, 2)
	_, err := cert.VerifyHead(context.Background(), signHead(t, other, log), []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "log head", "does not verify", cert.KeyID(s.Public()))
}
