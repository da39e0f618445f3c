package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tune caps the reconnect backoff in the rendered agent config and leaves
// every other key as cloud-init wrote it; without --boot-agent-retry the
// file is untouched.
func TestTuneAgentConfig(t *testing.T) {
	const rendered = "api_url: https://10.0.0.1:5291\nnode_id: n-1\nretry_initial: 1s\nretry_max: 1m0s\n"
	for _, tc := range []struct {
		name  string
		retry time.Duration
		want  []string
	}{
		{"capped", 500 * time.Millisecond, []string{"retry_initial: 50ms", "retry_max: 500ms", "node_id: n-1", "api_url: https://10.0.0.1:5291"}},
		{"as rendered", 0, []string{"retry_initial: 1s", "retry_max: 1m0s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(rendered), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := newAgents("agent", t.TempDir(), tc.retry, slog.New(slog.DiscardHandler)).tune(path); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("config lacks %q:\n%s", w, b)
				}
			}
		})
	}
}
