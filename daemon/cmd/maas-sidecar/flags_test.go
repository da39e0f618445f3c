package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFlagsOverrideTheFile(t *testing.T) {
	file := writeConfig(t, "admin_listen: 127.0.0.1:7000\nstate_dir: /srv/from-file\nlog_level: warn\n")
	tests := []struct {
		name string
		args []string
		want func(*config.Config)
	}{
		{"file only", []string{"--config", file},
			func(c *config.Config) {
				c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:7000", "/srv/from-file", "warn"
			}},
		{"flags win", []string{"--config", file, "--admin-listen", "127.0.0.1:0", "--state-dir", "/srv/flag", "--log-level", "debug"},
			func(c *config.Config) { c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:0", "/srv/flag", "debug" }},
		{"unset flags keep the file", []string{"--config", file, "--state-dir", "/srv/flag"},
			func(c *config.Config) { c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:7000", "/srv/flag", "warn" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseServe(tt.args, &bytes.Buffer{})
			if err != nil {
				t.Fatalf("parseServe() = %v", err)
			}
			want := config.Default()
			tt.want(&want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("config (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseServeErrors(t *testing.T) {
	empty := writeConfig(t, "")
	tests := []struct {
		name  string
		args  []string
		usage bool
		msg   string
	}{
		{"unknown flag", []string{"--config", empty, "--colour"}, true, "flag provided but not defined: -colour"},
		{"stray argument", []string{"--config", empty, "now"}, true, `unexpected argument "now"`},
		{"dev-idle without dev", []string{"--config", empty, "--dev-idle"}, true, "--dev-idle needs --dev"},
		{"dev-no-postgres without dev", []string{"--config", empty, "--dev-no-postgres"}, true, "--dev-no-postgres needs --dev"},
		{"bad listen flag", []string{"--config", empty, "--admin-listen", "x"}, false, `admin_listen: "x" is not host:port`},
		{"missing explicit file", []string{"--config", "/nonexistent/maas-sidecar.yaml"}, false, "/nonexistent/maas-sidecar.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseServe(tt.args, &bytes.Buffer{})
			var u usageError
			if err == nil || errors.As(err, &u) != tt.usage || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("parseServe() = %v, want usage error %v containing %q", err, tt.usage, tt.msg)
			}
		})
	}
}

func TestServeHelp(t *testing.T) {
	var out bytes.Buffer
	_, err := parseServe([]string{"-h"}, &out)
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-admin-listen") {
		t.Fatalf("parseServe(-h) = %v, output %q; want ErrHelp and the flag list", err, out.String())
	}
}

// --dev gives each simulated architecture a placeholder agent package and
// keeps the ones the file configures, in either form.
func TestDevAgentPackages(t *testing.T) {
	dev := func(arch string) config.AgentPackage {
		return config.AgentPackage{URL: "https://localhost/dev-mode/gpuaas-node-agent_" + arch + ".deb"}
	}
	tests := []struct {
		name, yaml string
		want       map[string]config.AgentPackage
	}{
		{"none configured", "", map[string]config.AgentPackage{"amd64": dev("amd64"), "arm64": dev("arm64")}},
		{"older amd64 keys", "agent:\n  package_url: https://m/a.deb\n",
			map[string]config.AgentPackage{"amd64": {URL: "https://m/a.deb"}, "arm64": dev("arm64")}},
		{"arm64 configured", "agent:\n  packages:\n    arm64: {url: https://m/arm.deb}\n",
			map[string]config.AgentPackage{"amd64": dev("amd64"), "arm64": {URL: "https://m/arm.deb"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseServe([]string{"--config", writeConfig(t, tt.yaml), "--dev"}, &bytes.Buffer{})
			if err != nil {
				t.Fatalf("parseServe() = %v", err)
			}
			if d := cmp.Diff(tt.want, got.Agent.PackageSet()); d != "" {
				t.Errorf("agent packages (-want +got):\n%s", d)
			}
		})
	}
}
