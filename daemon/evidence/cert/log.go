package cert

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

// LogEntry is one certificate recorded in the site's append-only log.
// Hash chains it to every entry before it (see EntryHash).
type LogEntry struct {
	Index       uint64 `json:"index"`
	Certificate string `json:"certificate"` // the certificate's digest
	NodeID      string `json:"node_id"`
	Hash        string `json:"hash"`
}

// LogHead is the log's state at a size, signed by the site key.
type LogHead struct {
	Site string    `json:"site"`
	Size uint64    `json:"size"`
	Head string    `json:"head"` // the last entry's hash; "" for an empty log
	Time time.Time `json:"time"`
}

// EntryHash is the hash of the entry at index recording certificate for
// node after an entry whose hash is prev ("" for the first):
// sha256:hex(SHA-256("maas-sidecar-log-v1\n" prev "\n" index "\n" certificate "\n" node)).
func EntryHash(prev string, index uint64, certificate, node string) string {
	h := sha256.New()
	for _, s := range []string{"maas-sidecar-log-v1", prev, strconv.FormatUint(index, 10), certificate} {
		h.Write([]byte(s + "\n"))
	}
	h.Write([]byte(node))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Append returns entries with certificate recorded at its end.
func Append(entries []LogEntry, certificate, node string) []LogEntry {
	prev := ""
	if n := len(entries); n > 0 {
		prev = entries[n-1].Hash
	}
	i := uint64(len(entries))
	return append(entries, LogEntry{Index: i, Certificate: certificate, NodeID: node, Hash: EntryHash(prev, i, certificate, node)})
}

// Head is the unsigned head of entries.
func Head(site string, entries []LogEntry, now time.Time) LogHead {
	h := LogHead{Site: site, Size: uint64(len(entries)), Time: now.UTC()}
	if n := len(entries); n > 0 {
		h.Head = entries[n-1].Hash
	}
	return h
}

// CheckLog recomputes entries' hash chain and compares it with head.
func CheckLog(entries []LogEntry, head LogHead) error {
	prev := ""
	for i, e := range entries {
		if e.Index != uint64(i) {
			return fmt.Errorf("log entry at position %d has index %d: the log was reordered or cut", i, e.Index)
		}
		if want := EntryHash(prev, e.Index, e.Certificate, e.NodeID); e.Hash != want {
			return fmt.Errorf("log entry %d: hash %s does not chain from the entry before (want %s): the log was altered or reordered", i, e.Hash, want)
		}
		prev = e.Hash
	}
	if uint64(len(entries)) != head.Size || prev != head.Head {
		return fmt.Errorf("log of %d entries ending %q does not match the signed head (size %d, head %q): the log was altered, reordered or cut", len(entries), prev, head.Size, head.Head)
	}
	return nil
}

// Inclusion returns the index of the entry recording digest.
func Inclusion(entries []LogEntry, digest string) (uint64, error) {
	for _, e := range entries {
		if e.Certificate == digest {
			return e.Index, nil
		}
	}
	return 0, fmt.Errorf("certificate %s is not in the log: it was never recorded, or the log was replaced", digest)
}
