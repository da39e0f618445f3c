package maassim

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Hint is the body the webhook emitter POSTs on every machine change
// (DESIGN §6). It says "this machine may have changed", never the state.
type Hint struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	SystemID   string `json:"system_id"`
	Hostname   string `json:"hostname"`
	StatusName string `json:"status_name"`
	OccurredAt string `json:"occurred_at"`
}

// SignatureHeader carries "t=<unix>,v1=<hex HMAC-SHA256 of t.body>".
const SignatureHeader = "X-Maas-Sidecar-Signature"

// Sign returns the SignatureHeader value for body at unix time t.
func Sign(secret []byte, t int64, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "%d.", t)
	mac.Write(body)
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// WebhookTarget is one receiver of hints.
type WebhookTarget struct {
	URL    string
	Secret string
}

// WebhookFaults disturb delivery: each hint is dropped, duplicated or held
// back behind the next one (reorder) with the given probabilities, and
// every delivery waits Delay (wall time).
type WebhookFaults struct {
	Drop, Duplicate, Reorder float64
	Delay                    time.Duration
}

type emitter struct {
	log     *slog.Logger
	mu      sync.Mutex
	rnd     *rand.Rand
	targets []WebhookTarget
	faults  WebhookFaults
	queue   chan Hint
	client  *http.Client
	now     func() time.Time
}

func newEmitter(log *slog.Logger, seed uint64) *emitter {
	return &emitter{log: log, rnd: rand.New(rand.NewPCG(seed, 7)), queue: make(chan Hint, 4096),
		client: &http.Client{Timeout: 10 * time.Second}}
}

// emit queues a hint for m (and queues m for the PostgreSQL mirrors). The queue never blocks the simulator: when it
// is full the hint is dropped and logged, as a lossy network would.
func (s *Sim) emit(m *machine, typ string) {
	s.mirrorMark(m)
	s.hook.mu.Lock()
	n := len(s.hook.targets)
	s.hook.mu.Unlock()
	if n == 0 {
		return
	}
	h := Hint{ID: fmt.Sprintf("%016x", s.opts.Rand.Uint64()), Type: typ, SystemID: m.systemID,
		Hostname: m.hostname, StatusName: m.status.String(), OccurredAt: s.now().UTC().Format(time.RFC3339Nano)}
	select {
	case s.hook.queue <- h:
	default:
		s.opts.Logger.Warn("maassim: webhook queue full, hint dropped", "node", m.systemID)
	}
}

// SetWebhooks replaces the webhook targets and their delivery faults.
func (s *Sim) SetWebhooks(targets []WebhookTarget, f WebhookFaults) {
	s.hook.mu.Lock()
	s.hook.targets, s.hook.faults = append([]WebhookTarget(nil), targets...), f
	s.hook.now = s.opts.Clock.Now
	s.hook.mu.Unlock()
}

func (e *emitter) run(ctx context.Context) {
	var held *Hint
	for {
		select {
		case <-ctx.Done():
			return
		case h := <-e.queue:
			e.mu.Lock()
			f := e.faults
			drop, dup, reorder := e.rnd.Float64() < f.Drop, e.rnd.Float64() < f.Duplicate, e.rnd.Float64() < f.Reorder
			e.mu.Unlock()
			if drop {
				continue
			}
			if reorder && held == nil {
				held = &h
				continue
			}
			e.deliver(ctx, h, f.Delay)
			if dup {
				e.deliver(ctx, h, f.Delay)
			}
			if held != nil {
				e.deliver(ctx, *held, f.Delay)
				held = nil
			}
		}
	}
}

func (e *emitter) deliver(ctx context.Context, h Hint, delay time.Duration) {
	if delay > 0 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
	}
	body, _ := json.Marshal(h)
	e.mu.Lock()
	targets, now := e.targets, e.now
	e.mu.Unlock()
	for _, t := range targets {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
		if err != nil {
			e.log.Warn("maassim: webhook request", "err", err)
			continue
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(SignatureHeader, Sign([]byte(t.Secret), now().Unix(), body))
		resp, err := e.client.Do(req)
		if err != nil {
			e.log.Warn("maassim: webhook delivery failed", "node", h.SystemID, "err", err)
			continue
		}
		resp.Body.Close()
	}
}
