//go:build e2e

package system

import (
	"bytes"
	"io"
	"net/http"
	"time"
)

// send makes one admin API request with the daemon's admin token and an
// audit reason, body sent as it is with contentType ("": none), and
// returns the answer's status, headers and body.
func (d *daemon) send(method, path, contentType string, body []byte) (int, http.Header, []byte) {
	d.t.Helper()
	req, err := http.NewRequest(method, d.url(path), bytes.NewReader(body))
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+d.token())
	req.Header.Set("X-Audit-Reason", "e2e")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		d.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out
}
