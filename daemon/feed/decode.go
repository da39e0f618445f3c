package feed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// MaxHintsPerPost bounds a batch webhook: an array of at most this many
// hints (well within the body's 64 KiB at a few hundred bytes each).
const MaxHintsPerPost = 100

// decodeHints reads a webhook body: one hint (an object), or a batch (an
// array of 1 to MaxHintsPerPost hints, batch true). Errors are invalid,
// naming the field, and the hint's index in a batch.
func decodeHints(siteID string, body []byte) (evs []lifecycle.WebhookEvent, batch bool, err error) {
	const op = "feed.Receive"
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		ev, err := decodeHint(siteID, body, "")
		return []lifecycle.WebhookEvent{ev}, false, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(trimmed, &raws); err != nil {
		return nil, true, lifecycle.Invalid(op, "", "the body must be a hint object or an array of them")
	}
	if len(raws) == 0 || len(raws) > MaxHintsPerPost {
		return nil, true, lifecycle.Invalid(op, "", "a batch holds 1 to %d hints, not %d", MaxHintsPerPost, len(raws))
	}
	evs = make([]lifecycle.WebhookEvent, len(raws))
	for i, raw := range raws {
		if evs[i], err = decodeHint(siteID, raw, fmt.Sprintf("[%d].", i)); err != nil {
			return nil, true, err
		}
	}
	return evs, true, nil
}

// decodeHint reads one hint; at prefixes the fields its errors name.
func decodeHint(siteID string, body []byte, at string) (lifecycle.WebhookEvent, error) {
	const op = "feed.Receive"
	var h Hint
	if err := lifecycle.DecodeStrict(body, op, &h); err != nil {
		return lifecycle.WebhookEvent{}, err
	}
	switch {
	case !idPattern.MatchString(h.ID):
		return lifecycle.WebhookEvent{}, lifecycle.Invalid(op, at+"id", "id must be 1-128 characters of [A-Za-z0-9._:-]")
	case !sidPattern.MatchString(h.SystemID):
		return lifecycle.WebhookEvent{}, lifecycle.Invalid(op, at+"system_id", "system_id must be a MAAS system id")
	case len(h.Type) > 64 || len(h.Hostname) > 255 || len(h.StatusName) > 64:
		return lifecycle.WebhookEvent{}, lifecycle.Invalid(op, at, "type, hostname or status_name is too long")
	}
	ev := lifecycle.WebhookEvent{SiteID: siteID, ID: h.ID, Type: h.Type, SystemID: h.SystemID,
		Hostname: h.Hostname, StatusName: h.StatusName}
	if h.OccurredAt != "" {
		t, err := time.Parse(time.RFC3339Nano, h.OccurredAt)
		if err != nil {
			return lifecycle.WebhookEvent{}, lifecycle.Invalid(op, at+"occurred_at", "occurred_at must be an RFC 3339 time")
		}
		ev.OccurredAt = t.UTC()
	}
	return ev, nil
}
