package main

import (
	"bytes"
	"testing"

	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
)

// TestVersionFlag prints the stamped version and reads no config (the
// default config path does not exist here).
func TestVersionFlag(t *testing.T) {
	old := buildinfo.Version
	t.Cleanup(func() { buildinfo.Version = old })
	buildinfo.Version = "1.2.3-test"
	var out bytes.Buffer
	if err := run([]string{"--version", "--config", "/nonexistent/config.yaml"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1.2.3-test\n" {
		t.Errorf("--version printed %q, want %q", got, "1.2.3-test\n")
	}
}
