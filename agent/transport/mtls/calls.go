package mtls

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Enroll posts an enrollment.
func (c *Client) Enroll(ctx context.Context, req wire.EnrollRequest) (wire.CertResponse, error) {
	var out wire.CertResponse
	_, err := c.do(ctx, http.MethodPost, wire.RouteEnroll, req, &out)
	return out, err
}

// RenewToken asks to replace an expired enrollment token.
func (c *Client) RenewToken(ctx context.Context, req wire.TokenRenewRequest) (wire.TokenRenewResponse, error) {
	var out wire.TokenRenewResponse
	_, err := c.do(ctx, http.MethodPost, wire.RouteRenewToken, req, &out)
	return out, err
}

// Renew asks for a certificate for a new key.
func (c *Client) Renew(ctx context.Context, nodeID string, req wire.RenewRequest) (wire.CertResponse, error) {
	var out wire.CertResponse
	_, err := c.do(ctx, http.MethodPost, wire.RenewPath(nodeID), req, &out)
	return out, err
}

// Wait long-polls; nil task when none came within timeout.
func (c *Client) Wait(ctx context.Context, nodeID string, timeout time.Duration) (*wire.Task, error) {
	var t wire.Task
	path := wire.WaitPath(nodeID) + "?" + url.Values{wire.WaitTimeoutParam: {timeout.String()}}.Encode()
	status, err := c.do(ctx, http.MethodGet, path, nil, &t)
	if err != nil || status == http.StatusNoContent {
		return nil, err
	}
	return &t, nil
}

// Report posts a task result.
func (c *Client) Report(ctx context.Context, nodeID, taskID string, res wire.Result) error {
	_, err := c.do(ctx, http.MethodPost, wire.ResultPath(nodeID, taskID), res, nil)
	return err
}

// Health posts a passive health report (wire.HealthPath).
func (c *Client) Health(ctx context.Context, nodeID string, r wire.HealthReport) error {
	_, err := c.do(ctx, http.MethodPost, wire.HealthPath(nodeID), r, nil)
	return err
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) (int, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return 0, fmt.Errorf("mtls: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, fmt.Errorf("mtls: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("mtls: %s %s: %w", method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		// The daemon behind this connection cannot serve now (a member
		// cut off from its store): the next call opens a new connection,
		// which a balancer may send to another daemon.
		defer c.tr.CloseIdleConnections()
	}
	if resp.StatusCode >= 300 {
		p := &wire.Problem{Status: resp.StatusCode, Title: http.StatusText(resp.StatusCode)}
		json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(p)
		p.Status, p.RetryAfter = resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), c.clock.Now())
		return resp.StatusCode, p
	}
	if out != nil && resp.StatusCode != http.StatusNoContent {
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
			return resp.StatusCode, fmt.Errorf("mtls: %s %s: bad body: %w", method, req.URL.Path, err)
		}
	}
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

// retryAfter reads a Retry-After value, whole seconds or an HTTP date
// (RFC 9110 §10.2.3); zero when absent or malformed.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
