package maas_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// Every request carries Config.UserAgent, so that MAAS's logs tell the
// daemons sharing a site apart; without one, Go's default is sent.
func TestUserAgent(t *testing.T) {
	for _, tc := range []struct{ name, agent, want string }{
		{"daemon name", "maas-sidecar/1.2.3 (region-a)", "maas-sidecar/1.2.3 (region-a)"},
		{"default", "", "Go-http-client/1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.UserAgent()
				_, _ = w.Write([]byte(`{"version":"3.6.5","subversion":"","capabilities":[]}`))
			}))
			defer srv.Close()
			c, err := maas.New(maas.Config{BaseURL: srv.URL + "/MAAS/", APIKey: "ck:tk:ts", UserAgent: tc.agent})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Version(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("User-Agent %q, want %q", got, tc.want)
			}
		})
	}
}
