package config

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func pubPEM(t *testing.T) string {
	t.Helper()
	pub := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

func indent(s string) string { return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ") }

func TestParseDefaults(t *testing.T) {
	key := pubPEM(t)
	got, err := Parse([]byte("api_url: https://region-1:5291\nnode_id: node-1\npoll_timeout: 5s\nsigning_public_key: |\n" + indent(key) + "\n"))
	if err != nil {
		t.Fatalf("Parse() = %v", err)
	}
	want := Defaults()
	want.APIURL, want.NodeID, want.PollTimeout, want.SigningPublicKey = "https://region-1:5291", "node-1", 5*time.Second, strings.TrimSpace(key)+"\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse() (-want +got):\n%s", diff)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	good := Defaults()
	good.APIURL, good.NodeID, good.SigningPublicKey = "https://r:5291", "n", pubPEM(t)
	if err := good.Validate(); err != nil {
		t.Fatalf("good config: %v", err)
	}
	tests := []struct {
		key string
		mut func(*Config)
	}{
		{"api_url", func(c *Config) { c.APIURL = "http://r:5291" }},
		{"node_id", func(c *Config) { c.NodeID = "" }},
		{"enrollment_token_path", func(c *Config) { c.EnrollmentTokenPath = "" }},
		{"ca_bundle_path", func(c *Config) { c.CABundlePath = "" }},
		{"poll_timeout", func(c *Config) { c.PollTimeout = 0 }},
		{"retry_max", func(c *Config) { c.RetryMax = time.Millisecond }},
		{"unit_name", func(c *Config) { c.UnitName = "" }},
		{"signing_public_key", func(c *Config) { c.SigningPublicKey = "nope" }},
		{"metrics.textfile_dir", func(c *Config) { c.Metrics.TextfileDir = "var/lib/prometheus" }},
		{"metrics.textfile_dir", func(c *Config) { c.Metrics.TextfileDir = "/var/lib/../tmp" }},
		{"metrics.interval", func(c *Config) { c.Metrics.Interval = 0 }},
		{"health.interval", func(c *Config) { c.Health.Interval = 100 * time.Millisecond }},
		{"cleanup.scratch_roots", func(c *Config) { c.Cleanup.ScratchRoots = []string{"/home"} }},
		{"cleanup.scratch_roots", func(c *Config) { c.Cleanup.ScratchRoots = []string{"/root/scratch"} }},
		{"cleanup.scratch_paths", func(c *Config) { c.Cleanup.ScratchPaths = []string{"/data/job"} }},
		{"cleanup.scratch_paths", func(c *Config) { c.Cleanup.ScratchPaths = []string{"/var/log/app"} }},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			c := good
			tc.mut(&c)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
				t.Fatalf("Validate() = %v, want an error naming %s", err, tc.key)
			}
		})
	}
	if _, err := Parse([]byte("api_url: https://r\nbogus: 1\n")); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown key: %v", err)
	}
}

// The metrics file goes to Debian's node_exporter textfile directory
// unless the config says otherwise; an empty directory writes none.
func TestMetricsKeys(t *testing.T) {
	key := indent(pubPEM(t))
	for _, tc := range []struct {
		yaml, dir string
	}{
		{"", "/var/lib/prometheus/node-exporter"},
		{"metrics:\n  textfile_dir: /run/node-exporter\n", "/run/node-exporter"},
		{"metrics:\n  textfile_dir: \"\"\n", ""},
	} {
		c, err := Parse([]byte("api_url: https://r:5291\nnode_id: n\nsigning_public_key: |\n" + key + "\n" + tc.yaml))
		if err != nil || c.Metrics.TextfileDir != tc.dir || c.Metrics.Interval != 30*time.Second {
			t.Errorf("%q: textfile_dir %q, interval %v, err %v; want %q, 30s", tc.yaml, c.Metrics.TextfileDir, c.Metrics.Interval, err, tc.dir)
		}
	}
}

// The health watch runs every 60s unless the config sets another
// interval or turns it off; off needs no interval.
func TestHealthKeys(t *testing.T) {
	key := indent(pubPEM(t))
	for _, tc := range []struct {
		yaml     string
		interval time.Duration
		off      bool
	}{
		{"", time.Minute, false},
		{"health:\n  interval: 15s\n", 15 * time.Second, false},
		{"health:\n  off: true\n  interval: 0s\n", 0, true},
	} {
		c, err := Parse([]byte("api_url: https://r:5291\nnode_id: n\nsigning_public_key: |\n" + key + "\n" + tc.yaml))
		if err != nil || c.Health.Interval != tc.interval || c.Health.Off != tc.off {
			t.Errorf("%q: health %+v, err %v; want interval %v, off %v", tc.yaml, c.Health, err, tc.interval, tc.off)
		}
	}
}
