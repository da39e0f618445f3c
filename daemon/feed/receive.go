package feed

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Hint is the webhook body (DESIGN.md §6, docs/operations.md "MAAS
// webhook contract"); senders such as maas-notify-forward build it too.
type Hint struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	SystemID   string `json:"system_id"`
	Hostname   string `json:"hostname"`
	StatusName string `json:"status_name"`
	OccurredAt string `json:"occurred_at"`
}

var (
	idPattern   = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)
	sidPattern  = regexp.MustCompile(`^[a-z0-9]{1,64}$`)
	sitePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// Receive verifies and stores one webhook for site siteID, durably, before
// it returns nil (the caller answers 202). The body is one hint, or an
// array of 1 to MaxHintsPerPost hints signed together, stored together;
// a batch's events received before are skipped, not refused. Errors: unauthorized (unknown
// site, unsigned, malformed or bad signature, stale), invalid (a
// malformed body; the webhook route answers it 400), conflict (a single
// hint's id seen before: nothing stored again),
// unavailable (Vault or the store, the feed not running, or a full queue:
// ErrBusy). Every outcome is counted.
func (f *Feed) Receive(ctx context.Context, siteID, sigHeader string, body []byte) error {
	reason, err := f.receive(ctx, siteID, sigHeader, body)
	f.cfg.Metrics.webhook(reason)
	if err != nil && reason != ReasonDuplicate && reason != ReasonUnavailable && reason != ReasonQueueFull {
		f.logRejected(siteID, reason)
	}
	return err
}

// logRejected logs a refused webhook once a minute per site, and once a
// minute for all unknown sites together: made-up site ids cost no more
// log lines than one.
func (f *Feed) logRejected(siteID, reason string) {
	key, note := "site:"+siteID, "further rejections for this site are counted, not logged, for a minute"
	if reason == ReasonUnknownSite {
		key, note = "unknown-site", "further webhooks for unknown sites are counted, not logged, for a minute"
	}
	if f.rejectLog.Allow(key, f.cfg.Clock.Now(), time.Minute) {
		f.log.Warn("webhook rejected", "site", siteID, "reason", reason, "note", note)
	}
}

// Rejected counts a webhook refused before Receive (too large, no site).
func (f *Feed) Rejected(reason string) { f.cfg.Metrics.webhook(reason) }

func (f *Feed) receive(ctx context.Context, siteID, sigHeader string, body []byte) (string, error) {
	const op = "feed.Receive"
	unauth := func(reason, msg string) (string, error) {
		return reason, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "%s", msg)
	}
	if !sitePattern.MatchString(siteID) {
		return unauth(ReasonUnknownSite, "unknown site")
	}
	if ok, err := f.liveSite(ctx, siteID); err != nil {
		return ReasonUnavailable, err
	} else if !ok {
		return unauth(ReasonUnknownSite, "unknown site")
	}
	if sigHeader == "" {
		return unauth(ReasonUnsigned, "the request is not signed ("+SignatureHeader+" is missing)")
	}
	sig, ok := parseSignature(sigHeader)
	if !ok {
		return unauth(ReasonMalformedSignature, SignatureHeader+" must be t=<unix seconds>,v1=<hex HMAC-SHA256>")
	}
	if !fresh(sig.t, f.cfg.Clock.Now(), f.cfg.MaxAge) {
		return unauth(ReasonStale, "the signature timestamp is more than "+f.cfg.MaxAge.String()+" away from now")
	}
	if reason, err := f.verify(ctx, siteID, sig, body); err != nil {
		return reason, err
	}
	evs, batch, err := decodeHints(siteID, body)
	if err != nil {
		return ReasonMalformedBody, err
	}
	dups, err := f.commit(ctx, evs)
	switch {
	case errors.Is(err, ErrBusy):
		return ReasonQueueFull, err
	case err != nil:
		return ReasonUnavailable, err
	case dups > 0 && !batch: // a batch is taken whole: its duplicates are skipped
		return ReasonDuplicate, lifecycle.Errorf(lifecycle.CodeConflict, op, "event %s was already received", evs[0].ID)
	}
	return "", nil
}

// verify checks the signature against the site's secret, re-reading a
// cached secret once before refusing.
func (f *Feed) verify(ctx context.Context, siteID string, sig signature, body []byte) (string, error) {
	const op = "feed.Receive"
	key, cached, err := f.secrets.get(ctx, siteID, false)
	ok := err == nil && key.valid(sig, body)
	if err == nil && !ok && cached {
		if key, _, err = f.secrets.get(ctx, siteID, true); err == nil {
			ok = key.valid(sig, body)
		}
	}
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return ReasonUnknownSite, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "no webhook secret is configured for this site")
	case err != nil:
		return ReasonUnavailable, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "the webhook secret cannot be read now")
	case !ok:
		return ReasonBadSignature, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "the signature does not match the body")
	}
	return "", nil
}
