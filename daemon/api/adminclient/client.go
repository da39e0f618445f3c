package adminclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
)

// Prefix is the root of the admin routes a Client's paths are under.
const Prefix = "/api/v1/admin"

// Client calls the admin API with a bearer token.
type Client struct {
	Base  string // http://host:port; InProcess's transport takes any
	Token string
	HTTP  *http.Client
	// Warn receives one line the first time an answer comes from a stale
	// snapshot of the store (a clustered store without quorum); nil: none.
	Warn   io.Writer
	warned atomic.Bool
}

// Call sends body (JSON-encoded when not nil) and decodes a 2xx answer
// into out (when not nil); it returns the raw answer too. A problem
// answer is an *APIError.
func (c *Client) Call(ctx context.Context, method, path string, body, out any, hdr map[string]string) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	c.warnStale(resp.Header)
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		return raw, problemOf(resp, raw)
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return raw, fmt.Errorf("%s %s: unexpected answer: %w", method, path, err)
		}
	}
	return raw, nil
}

// warnStale writes the stale-answer warning once: the daemon's store has
// no quorum and answered from the snapshot its headers date.
func (c *Client) warnStale(h http.Header) {
	if c.Warn == nil || !strings.HasPrefix(h.Get("Warning"), "110 ") || c.warned.Swap(true) {
		return
	}
	fmt.Fprintf(c.Warn, "warning: the daemon's store has no quorum: this answer is a snapshot taken %s (%ss old); writes are refused until the cluster is back\n",
		h.Get("X-Store-Snapshot-Taken"), h.Get("Age"))
}
