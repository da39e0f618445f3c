package admin

import (
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
)

// WebhookPath receives MAAS change hints. It takes no bearer token: each
// request is signed with its site's secret (X-Maas-Sidecar-Signature) and
// names its site in the site_id query parameter.
const WebhookPath = "/api/v1/webhooks/maas"

// webhookMaxBody bounds a hint body; a real one is a few hundred bytes.
const webhookMaxBody = 64 << 10

// Rejection reasons counted here (the rest are the receiver's).
const (
	reasonMissingSite = "missing_site"
	reasonTooLarge    = "too_large"
)

// webhook answers 202 once the hint is durable, 409 for an id already
// received, 401 for signature problems, 400 for malformed bodies, 413 for
// oversized ones, 415 for a body declared as other than JSON, and 503 when the store or Vault is unavailable, or with
// Retry-After when the receiver's queue is full (an error with a
// RetryAfter() time.Duration method).
func (a *API) webhook(w http.ResponseWriter, r *http.Request) {
	const op = "admin.webhook"
	if err := problem.JSONBody(r, op); err != nil {
		problem.Write(w, err)
		return
	}
	site := r.URL.Query().Get("site_id")
	if site == "" {
		a.hooks.Rejected(reasonMissingSite)
		problem.Write(w, problem.Malformed(op, "site_id", "the site_id query parameter is required"))
		return
	}
	body, err := readLimited(w, r, op)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			a.hooks.Rejected(reasonTooLarge)
			w.Header().Set("Connection", "close")
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write([]byte(`{"type":"urn:maas-sidecar:problem:too_large","title":"Request Entity Too Large","status":413,"code":"too_large","detail":"the body is larger than 65536 bytes"}`))
			return
		}
		problem.Write(w, err)
		return
	}
	if err := a.hooks.Receive(r.Context(), site, r.Header.Get("X-Maas-Sidecar-Signature"), body); err != nil {
		var busy interface{ RetryAfter() time.Duration }
		if errors.As(err, &busy) { // the receiver's queue is full: come back shortly
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(busy.RetryAfter().Seconds())))))
		}
		problem.Write(w, problem.MalformedFrom(err)) // an invalid hint body is a malformed request
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func readLimited(w http.ResponseWriter, r *http.Request, op string) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhookMaxBody))
	var tooLarge *http.MaxBytesError
	if err != nil && !errors.As(err, &tooLarge) {
		return nil, problem.Malformed(op, "", "reading the body: %v", err)
	}
	return b, err
}
