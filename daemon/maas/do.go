package maas

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// request is one API call: path relative to api/2.0/, the op (sent in the
// query, as MAAS's own clients do) and the parameters (query for GET and
// DELETE, form body for POST and PUT).
type request struct {
	op     string // for errors: "deploy abc123"
	method string
	path   string
	maasOp string
	params url.Values
}

// do runs r and decodes a JSON answer into out (when out is non-nil).
// GETs are retried on unavailable errors, with capped, jittered backoff.
func (c *Client) do(ctx context.Context, r request, out any) error {
	attempts := 1
	if r.method == http.MethodGet && c.retries > 0 {
		attempts += c.retries
	}
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 && !c.wait(ctx, c.retry.Delay(i, c.jitter())) {
			break
		}
		if err := lifecycle.CheckLease(ctx); err != nil {
			return notSent(r.op, err)
		}
		var body []byte
		body, err = c.once(ctx, r)
		c.metrics.done(r, err)
		if err == nil {
			return decode(r.op, body, out)
		}
		if !lifecycle.IsRetryable(err) {
			return err
		}
		c.log.Debug("maas: retrying read", "op", r.op, "attempt", i+1, "err", err)
	}
	return err
}

// notSent is the error of a request that was never sent: its context had
// ended, or the site lease it would act under had lapsed (a conflict).
func notSent(op string, err error) error {
	code := lifecycle.ErrorCode(err)
	if code == lifecycle.CodeInternal {
		code = lifecycle.CodeUnavailable
	}
	return &lifecycle.Error{Code: code, Op: "maas: " + op, Msg: "request not sent", Err: err}
}

func (c *Client) once(ctx context.Context, r request) ([]byte, error) {
	u := *c.api
	u.Path += r.path
	q := url.Values{}
	var body io.Reader
	if r.method == http.MethodGet || r.method == http.MethodDelete {
		q = cloneValues(r.params)
	} else {
		body = bytes.NewBufferString(r.params.Encode())
	}
	if r.maasOp != "" {
		q.Set("op", r.maasOp)
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, "maas: "+r.op, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	auth, err := c.key.header(c.clock.Now(), c.rnd)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, "maas: "+r.op, err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Accept", "application/json")
	if c.agent != "" {
		req.Header.Set("User-Agent", c.agent)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(r.op, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, c.transportError(r.op, err)
	}
	if resp.StatusCode >= 300 {
		return nil, c.statusError(r.op, resp.StatusCode, data)
	}
	return data, nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// bodyDecoder is an answer that decodes its own JSON (large ones, such
// as the machine list, that encoding/json is too slow for).
type bodyDecoder interface{ decodeBody(body []byte) error }

func decode(op string, body []byte, out any) error {
	if out == nil || len(body) == 0 {
		return nil
	}
	var err error
	if d, ok := out.(bodyDecoder); ok {
		err = d.decodeBody(body)
	} else {
		err = json.Unmarshal(body, out)
	}
	if err != nil {
		return &lifecycle.Error{Code: lifecycle.CodeInternal, Op: "maas: " + op,
			Msg: fmt.Sprintf("MAAS answered unexpected JSON (%d bytes)", len(body)), Err: err}
	}
	return nil
}
