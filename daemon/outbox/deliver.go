package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Envelope is the JSON body POSTed for one event: the event without its
// delivery bookkeeping. Seq increases in the order events were recorded;
// a receiver that sees an id twice (a redelivery after a lost answer)
// should ignore the repeat.
type Envelope struct {
	ID         string              `json:"id"`
	Seq        uint64              `json:"seq"`
	Type       lifecycle.EventType `json:"type"`
	NodeID     string              `json:"node_id,omitempty"`
	SiteID     string              `json:"site_id,omitempty"`
	RunID      string              `json:"run_id,omitempty"`
	OccurredAt time.Time           `json:"occurred_at"`
	Data       json.RawMessage     `json:"data,omitempty"`
}

func envelope(e lifecycle.OutboxEvent) Envelope {
	return Envelope{ID: e.ID, Seq: e.Seq, Type: e.Type, NodeID: e.NodeID, SiteID: e.SiteID, RunID: e.RunID,
		OccurredAt: e.OccurredAt.UTC(), Data: e.Data}
}

// deliver makes one attempt at e and records its outcome. Only a store
// write that fails is returned: the attempt's own failure is recorded
// with the time of the next one.
func (p *Poster) deliver(ctx context.Context, e lifecycle.OutboxEvent) error {
	reason, err := p.post(ctx, e)
	if ctx.Err() != nil {
		return nil // shutting down: the event stays due, nothing to record
	}
	log := p.o.Logger.With("event", e.ID, "type", string(e.Type), "node", e.NodeID, "attempt", e.Attempts+1)
	if err == nil {
		p.o.Metrics.ok(e.Type)
		log.Debug("event delivered")
		return p.o.Store.MarkDelivered(context.WithoutCancel(ctx), e.ID, p.o.Clock.Now())
	}
	p.o.Metrics.fail(reason)
	next := p.o.Clock.Now().Add(p.o.Backoff.Delay(e.Attempts+1, p.o.Rand()))
	log.Warn("event delivery failed", "reason", reason, "retry_at", next, "err", err)
	return p.o.Store.MarkFailed(context.WithoutCancel(ctx), e.ID, err.Error(), next)
}

// post sends e once; on failure it returns the reason label and the error.
func (p *Poster) post(ctx context.Context, e lifecycle.OutboxEvent) (string, error) {
	body, err := json.Marshal(envelope(e))
	if err != nil {
		return ReasonEncode, fmt.Errorf("encode event: %w", err)
	}
	secret, err := p.o.Secret(ctx)
	if err != nil {
		return ReasonSecret, err
	}
	ctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.o.URL, bytes.NewReader(body))
	if err != nil {
		return ReasonTransport, fmt.Errorf("events: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(secret, p.o.Clock.Now().Unix(), body))
	req.Header.Set(EventIDHeader, e.ID)
	resp, err := p.o.Client.Do(req)
	if err != nil {
		return ReasonTransport, fmt.Errorf("events: post: %w", err)
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	if resp.StatusCode/100 == 3 {
		return ReasonRedirect, fmt.Errorf("events: receiver answered %s (redirects are not followed)", resp.Status)
	}
	if resp.StatusCode/100 != 2 {
		return ReasonStatus, fmt.Errorf("events: receiver answered %s: %s", resp.Status, bytes.TrimSpace(snippet))
	}
	return "", nil
}
