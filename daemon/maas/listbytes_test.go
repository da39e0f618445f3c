package maas_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// listPath is the path of MAAS's machine list, whatever the base URL.
const listPath = "/api/2.0/machines/"

func isFullList(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, listPath) && r.URL.RawQuery == ""
}

// recorder keeps the body of the last unfiltered GET machines/ answer
// it passes on.
type recorder struct {
	mu   sync.Mutex
	body []byte
}

func (rec *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !isFullList(r) || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	rec.mu.Lock()
	rec.body = data
	rec.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

// recordMachineList returns the simulator's answer to an unfiltered
// GET machines/, as it went over the wire to the client.
func recordMachineList(t testing.TB, e *env) []byte {
	t.Helper()
	rec := &recorder{}
	c, err := maas.New(maas.Config{BaseURL: e.srv.URL + "/MAAS/", APIKey: apiKey, Clock: e.clock,
		HTTPClient: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Machines(t.Context(), lifecycle.MachineFilter{}); err != nil {
		t.Fatal(err)
	}
	if len(rec.body) == 0 {
		t.Fatal("no machine list recorded")
	}
	return rec.body
}

// replay answers an unfiltered GET machines/ with recorded bytes from
// memory and passes every other request on to the simulator.
type replay struct{ body []byte }

func (rp replay) RoundTrip(r *http.Request) (*http.Response, error) {
	if !isFullList(r) {
		return http.DefaultTransport.RoundTrip(r)
	}
	if r.Body != nil {
		r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, ContentLength: int64(len(rp.body)),
		Body: io.NopCloser(bytes.NewReader(rp.body)), Request: r}, nil
}
