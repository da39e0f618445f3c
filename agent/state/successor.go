package state

import "bytes"

// Pending token successor: the token the agent made to replace an expired
// enrollment token, kept (0600) with the digest of the token it replaces
// until the daemon took it. A renewal retried after a lost answer sends the
// same successor, which the daemon recognises and answers again.
const (
	SuccessorFile    = "renew.token"
	SuccessorForFile = "renew.for-sha256"
)

var successor = keyed{value: SuccessorFile, digest: SuccessorForFile}

// PendingSuccessor returns the saved successor of the token with
// tokenDigest, or "".
func (d Dir) PendingSuccessor(tokenDigest []byte) (string, error) {
	tok, err := d.load(successor, tokenDigest)
	return string(bytes.TrimSpace(tok)), err
}

// SavePendingSuccessor keeps token as the successor of the token with
// tokenDigest.
func (d Dir) SavePendingSuccessor(tokenDigest []byte, token string) error {
	return d.save(successor, tokenDigest, []byte(token))
}

// DropPendingSuccessor forgets the successor once it is in the token file.
func (d Dir) DropPendingSuccessor() error { return d.remove(SuccessorFile, SuccessorForFile) }
