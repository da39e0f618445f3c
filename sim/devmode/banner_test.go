package devmode

import (
	"strings"
	"testing"
)

// TestBannerConsole: make run's banner prints the console's URL.
func TestBannerConsole(t *testing.T) {
	s := &Site{Hosts: []Host{{Hostname: "gpu-01", IPMI: "10.0.0.1"}}, URL: "http://127.0.0.1:1/MAAS/"}
	var b strings.Builder
	s.Banner(&b, "127.0.0.1:5290", "/var/lib/x")
	if !strings.Contains(b.String(), "console      http://127.0.0.1:5290/console/") {
		t.Fatalf("the banner has no console line:\n%s", b.String())
	}
}
