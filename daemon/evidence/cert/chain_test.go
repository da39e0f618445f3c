package cert_test

import (
	"context"
	"crypto/ed25519"
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func TestAChainVerifies(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, _ := issueChain(t, s, 3)
	chain, err := cert.VerifyChain(context.Background(), envs, []ed25519.PublicKey{s.Public()})
	if err != nil {
		t.Fatal(err)
	}
	if len(chain) != 3 || chain[2].Certificate.Predicate.Previous != digests[1] {
		t.Fatalf("chain %+v", chain)
	}
}

func TestACertificateRemovedFromTheMiddleOfAChainShows(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, _ := issueChain(t, s, 4)
	cut := slices.Delete(slices.Clone(envs), 1, 2)
	_, err := cert.VerifyChain(context.Background(), cut, []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "certificate 2 names previous", digests[1], "but certificate 1 is "+digests[0], "missing")
}

func TestTheChainsFirstCertificateRemovedShows(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, _ := issueChain(t, s, 3)
	_, err := cert.VerifyChain(context.Background(), envs[1:], []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "certificate 1 names a previous certificate "+digests[0], "start is missing")
}

func TestAReorderedChainShows(t *testing.T) {
	s := newKey(t, 0)
	envs, _, _ := issueChain(t, s, 3)
	envs[1], envs[2] = envs[2], envs[1]
	_, err := cert.VerifyChain(context.Background(), envs, []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "certificate 2 names previous", "out of order")
}

func TestAnotherNodesCertificateInAChainShows(t *testing.T) {
	s := newKey(t, 0)
	envs, digests, _ := issueChain(t, s, 1)
	c := sample(digests[0], 1)
	c.Node.NodeID = "node-8"
	env, _, err := cert.Issue(context.Background(), s, c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cert.VerifyChain(context.Background(), append(envs, env), []ed25519.PublicKey{s.Public()})
	wantErr(t, err, "certificate 2 is for node node-8", "node node-7")
}
