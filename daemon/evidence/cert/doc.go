// Package cert is the turnover's clean certificate: an in-toto Statement v1
// whose subject is the node and whose predicate (type PredicateType) holds
// the evidence digest and its summary, signed as a DSSE envelope with the
// site's Ed25519 key. Each certificate names the digest of the node's
// previous one, and a per-site append-only hash-chain log with a signed head
// records every certificate, so a deleted, replaced or reordered certificate
// shows. Verification needs only the site's public keys (current and
// retired) and explains each failure.
package cert
