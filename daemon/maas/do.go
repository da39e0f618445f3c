package maas

import (
	"bytes"
	"context"
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
		var decodeErr error
		decodeErr, err = c.once(ctx, r, out)
		c.metrics.done(r, err)
		if err == nil {
			return decodeErr
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

// once sends r and reads a successful answer into out. err is the
// request's failure (transport or MAAS's status); decodeErr an answer
// refused, which is no failure of the request.
func (c *Client) once(ctx context.Context, r request, out any) (decodeErr, err error) {
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(r.op, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		data, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.limit)))
		if err != nil {
			return nil, c.transportError(r.op, err)
		}
		return nil, c.statusError(r.op, resp.StatusCode, data)
	}
	decodeErr, err = c.read(r.op, resp.Body, resp.ContentLength, out)
	if err != nil {
		return nil, c.transportError(r.op, err)
	}
	return decodeErr, nil
}

// newRequest is r as an HTTP request, signed.
func (c *Client) newRequest(ctx context.Context, r request) (*http.Request, error) {
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
	return req, nil
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
