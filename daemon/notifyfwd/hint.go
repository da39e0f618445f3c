package notifyfwd

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
)

// hint is the webhook body of the daemon's contract. The notification
// carries only the system id, so hostname and status_name stay empty:
// the daemon re-reads the machine from MAAS either way.
type hint = feed.Hint

// systemID is the daemon's pattern of a MAAS system id.
var systemID = regexp.MustCompile(`^[a-z0-9]{1,64}$`)

func newHint(id, channel, sid string, at time.Time) hint {
	return hint{ID: id, Type: channel, SystemID: sid, OccurredAt: at.UTC().Format(time.RFC3339Nano)}
}

// newID is "pgn-" and 16 random bytes in hex: unique across restarts and
// forwarders, so the daemon's 409 means this very hint arrived before.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "pgn-" + hex.EncodeToString(b[:])
}

// payloadID is a notification's system id, trimmed, if it is one.
func payloadID(payload string) (string, bool) {
	s := strings.TrimSpace(payload)
	return s, systemID.MatchString(s)
}
