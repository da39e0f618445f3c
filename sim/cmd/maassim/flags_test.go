package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	ok := config{apiKey: "ck:tk:ts"}
	for _, tc := range []struct {
		name string
		edit func(*config)
		want string
	}{
		{"defaults", func(*config) {}, ""},
		{"no key", func(c *config) { c.apiKey = "" }, "--api-key"},
		{"webhook without secret", func(c *config) { c.webhookURL = "http://x" }, "--webhook-secret"},
		{"agent without dir", func(c *config) { c.bootAgent = "/bin/true" }, "--boot-dir"},
		{"dir without agent", func(c *config) { c.bootDir = "d" }, "--boot-agent"},
		{"negative boss", func(c *config) { c.noBossEvery = -1 }, "--no-boss-every"},
		{"negative arm64", func(c *config) { c.arm64Every = -1 }, "--arm64-every"},
		{"fake tools without agent", func(c *config) { c.fakeTools = "bin" }, "--boot-agent"},
		{"unknown GPU vendor", func(c *config) { c.gpus = "intel:8" }, "--gpus"},
		{"postgres DSN with a bad port", func(c *config) { c.postgres = "postgres://maas:pw-secret@db:x/maas" }, "--postgres: cannot parse `postgres://maas:xxxxx@db:x/maas`"},
		{"postgres DSN with a bad sslmode", func(c *config) { c.postgres = "host=db sslmode=sometimes" }, "--postgres: cannot parse `host=db sslmode=sometimes`"},
		{"postgres DSN", func(c *config) { c.postgres = "postgres://maas:pw-secret@127.0.0.1:5432/maas" }, ""},
		{"fake tools and GPUs", func(c *config) { c.fakeTools, c.bootAgent, c.bootDir, c.gpus = "bin", "a", "d", "amd:8" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("validate() = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

// The request log has one line per MAAS API call, with its op and status,
// and the caller's User-Agent, and none for the control routes.
func TestRequestLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "requests.jsonl")
	l, err := openRequestLog(path)
	if err != nil {
		t.Fatal(err)
	}
	h := l.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("op") == "release" {
			w.WriteHeader(http.StatusConflict)
		}
	}))
	for _, u := range []string{"/MAAS/api/2.0/machines/abc/?op=deploy", "/_sim/step", "/MAAS/api/2.0/machines/abc/?op=release"} {
		req := httptest.NewRequest(http.MethodPost, u, nil)
		req.Header.Set("User-Agent", "maas-sidecar/dev (region-a)")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	l.close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Time.Before(time.Now().Add(-time.Minute)) {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		got = append(got, r.Method+" "+r.Path+" "+r.Op+" "+http.StatusText(r.Status)+" "+r.UserAgent)
	}
	want := []string{"POST /MAAS/api/2.0/machines/abc/ deploy OK maas-sidecar/dev (region-a)",
		"POST /MAAS/api/2.0/machines/abc/ release Conflict maas-sidecar/dev (region-a)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
