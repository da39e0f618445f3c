package state

// Pending enrollment key: the key an enrollment attempt uses, kept with
// the digest of the token it goes with. Retrying with the same token reuses
// it, so a daemon that spent the token but crashed before answering can
// recognise the retry and answer it.
const (
	PendingKeyFile   = "enroll.key"
	PendingTokenFile = "enroll.token-sha256"
)

var pendingKey = keyed{value: PendingKeyFile, digest: PendingTokenFile}

// PendingKey returns the saved enrollment key for tokenDigest, or nil.
func (d Dir) PendingKey(tokenDigest []byte) ([]byte, error) {
	return d.load(pendingKey, tokenDigest)
}

// SavePendingKey keeps keyPEM for the enrollment with tokenDigest.
func (d Dir) SavePendingKey(tokenDigest, keyPEM []byte) error {
	return d.save(pendingKey, tokenDigest, keyPEM)
}

// DropPendingKey forgets the pending key once enrollment succeeded.
func (d Dir) DropPendingKey() error { return d.remove(PendingKeyFile, PendingTokenFile) }
