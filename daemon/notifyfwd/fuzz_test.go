package notifyfwd

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FuzzPayloadID checks the forwarder's reading of a PostgreSQL
// notification payload (bytes from the MAAS database): a payload is
// dropped, or it gives a system id that the hint the forwarder builds
// from it carries unchanged, and that hint decodes strictly as the
// daemon's webhook body.
func FuzzPayloadID(f *testing.F) {
	for _, s := range []string{"abc123", " abc123\n", "ABC123", "", "a b", strings.Repeat("a", 65), "abc123\x00", "4y3h7n"} {
		f.Add(s)
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
	f.Fuzz(func(t *testing.T, payload string) {
		sid, ok := payloadID(payload)
		if !ok {
			return
		}
		if sid != strings.TrimSpace(payload) || sid == "" || len(sid) > 64 || strings.ContainsAny(sid, " \t\r\n\x00") {
			t.Fatalf("payload %q gave system id %q", payload, sid)
		}
		b, err := json.Marshal(newHint(newID(), "machine_update", sid, at))
		if err != nil {
			t.Fatal(err)
		}
		var h feed.Hint
		if err := lifecycle.DecodeStrict(b, "test", &h); err != nil || h.SystemID != sid {
			t.Fatalf("the hint for %q does not decode back: %v %+v", sid, err, h)
		}
	})
}
