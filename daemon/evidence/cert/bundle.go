package cert

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
)

// Bundle is the export of a node's certificates, oldest first, with the
// site log and its signed head: what an auditor verifies offline.
type Bundle struct {
	Certificates []json.RawMessage `json:"certificates"`
	Log          *BundleLog        `json:"log,omitempty"`
}

// BundleLog is the site log as exported.
type BundleLog struct {
	Entries []LogEntry      `json:"entries"`
	Head    json.RawMessage `json:"head"`
}

// VerifyFile verifies a bundle, or a single envelope, and returns what
// checked out; the error says which check failed and why.
func VerifyFile(ctx context.Context, b []byte, keys []ed25519.PublicKey) ([]string, error) {
	var probe struct {
		PayloadType *string `json:"payloadType"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if probe.PayloadType != nil {
		v, err := Verify(ctx, b, keys)
		if err != nil {
			return nil, err
		}
		return append(describe(v), "chain and log not checked: a single certificate (export the node's bundle to check them)"), nil
	}
	var bd Bundle
	if err := json.Unmarshal(b, &bd); err != nil || len(bd.Certificates) == 0 {
		return nil, errors.New("neither a DSSE envelope nor a bundle with certificates")
	}
	return verifyBundle(ctx, bd, keys)
}

func verifyBundle(ctx context.Context, bd Bundle, keys []ed25519.PublicKey) ([]string, error) {
	envs := make([][]byte, len(bd.Certificates))
	for i, c := range bd.Certificates {
		envs[i] = c
	}
	chain, err := VerifyChain(ctx, envs, keys)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range chain {
		out = append(out, describe(v)...)
	}
	out = append(out, fmt.Sprintf("chain: %d certificates, each naming the one before", len(chain)))
	if bd.Log == nil {
		return nil, errors.New("the bundle has no log: inclusion cannot be checked")
	}
	head, err := VerifyHead(ctx, bd.Log.Head, keys)
	if err != nil {
		return nil, err
	}
	if err := CheckLog(bd.Log.Entries, head); err != nil {
		return nil, err
	}
	for _, v := range chain {
		i, err := Inclusion(bd.Log.Entries, v.Digest)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("log: %s is entry %d of %d (signed head of site %s)", v.Digest, i, head.Size, head.Site))
	}
	return out, nil
}

func describe(v Verified) []string {
	p := v.Certificate.Predicate
	key := "current key"
	if v.Retired {
		key = "retired key"
	}
	return []string{fmt.Sprintf("certificate %s: node %s (%s), mode %s, finished %s: signature OK (%s %s)",
		v.Digest, v.Certificate.Node.NodeID, v.Certificate.Node.MAASSystemID, p.Mode, p.FinishedAt.Format("2006-01-02T15:04:05Z07:00"), key, v.KeyID)}
}
