package cert

import (
	"context"
	"crypto/ed25519"
	"fmt"
)

// VerifyChain verifies a node's certificates, oldest first: each one's
// signature, one node throughout, the first naming no previous certificate
// and every other naming the digest of the one before it.
func VerifyChain(ctx context.Context, envelopes [][]byte, keys []ed25519.PublicKey) ([]Verified, error) {
	out := make([]Verified, 0, len(envelopes))
	for i, env := range envelopes {
		v, err := Verify(ctx, env, keys)
		if err != nil {
			return out, fmt.Errorf("certificate %d: %w", i+1, err)
		}
		if err := linked(out, v, i+1); err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// linked checks that v (number n) follows the chain so far.
func linked(chain []Verified, v Verified, n int) error {
	prev := v.Certificate.Predicate.Previous
	if len(chain) == 0 {
		if prev != "" {
			return fmt.Errorf("certificate %d names a previous certificate %s that is not in the chain: the chain's start is missing", n, prev)
		}
		return nil
	}
	last := chain[len(chain)-1]
	if v.Certificate.Node.NodeID != last.Certificate.Node.NodeID {
		return fmt.Errorf("certificate %d is for node %s, the chain is for node %s", n, v.Certificate.Node.NodeID, last.Certificate.Node.NodeID)
	}
	if prev != last.Digest {
		return fmt.Errorf("certificate %d names previous %q but certificate %d is %s: a certificate is missing, replaced or out of order", n, prev, n-1, last.Digest)
	}
	return nil
}
