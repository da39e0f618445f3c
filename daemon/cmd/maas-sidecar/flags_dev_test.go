//go:build dev

package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

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

// --dev shortens the agents' health interval to 5s unless the config sets
// one; without --dev the default, 60s, stays.
func TestDevHealthInterval(t *testing.T) {
	tests := []struct {
		name, yaml string
		dev        bool
		want       time.Duration
	}{
		{"dev, not configured", "", true, 5 * time.Second},
		{"dev, configured", "agent:\n  health_interval: 20s\n", true, 20 * time.Second},
		{"not dev", "", false, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"--config", writeConfig(t, tt.yaml)}
			if tt.dev {
				args = append(args, "--dev")
			}
			got, err := parseServe(args, &bytes.Buffer{})
			if err != nil || got.Agent.HealthInterval != tt.want {
				t.Errorf("parseServe(%v): agent.health_interval %s, %v; want %s", args, got.Agent.HealthInterval, err, tt.want)
			}
		})
	}
}
