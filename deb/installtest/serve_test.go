//go:build integration

package installtest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
)

// served is a file on a loopback HTTP server; the test roots share the
// host's network namespace, so commands inside reach it.
type served struct {
	URL    string
	SHA256 string
	hits   atomic.Int64
}

// serveFile serves path at /name on 127.0.0.1 until the test ends.
func serveFile(t *testing.T, path, name string) *served {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	s := &served{SHA256: hex.EncodeToString(sum[:])}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+name {
			http.NotFound(w, r)
			return
		}
		s.hits.Add(1)
		w.Header().Set("Content-Type", "application/vnd.debian.binary-package")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/" + name
	return s
}
