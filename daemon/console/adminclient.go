package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// apiError is a refused admin API call: its status and problem detail.
type apiError struct {
	Status int
	Title  string
	Detail string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Title, e.Detail) }

// call makes one admin API request in-process with the session's token
// and decodes a 2xx answer into out (when not nil).
func (c *Console) call(ctx context.Context, s *session, method, path string, q url.Values, body any, hdr map[string]string, out any) error {
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	target := "/api/v1/admin" + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	r, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return err
	}
	r.RemoteAddr = "127.0.0.1:0" // in-process: the console itself
	r.Header.Set("Authorization", "Bearer "+s.token.Reveal())
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := newAnswer()
	c.admin.ServeHTTP(w, r)
	if code := w.status(); code/100 != 2 {
		e := &apiError{Status: code}
		var p struct{ Title, Detail string }
		if json.Unmarshal(w.body.Bytes(), &p) == nil {
			e.Title, e.Detail = p.Title, p.Detail
		}
		if e.Title == "" {
			e.Title = http.StatusText(e.Status)
		}
		return e
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(w.body.Bytes(), out)
}

// get is call for a GET.
func (c *Console) get(ctx context.Context, s *session, path string, q url.Values, out any) error {
	return c.call(ctx, s, http.MethodGet, path, q, nil, nil, out)
}
