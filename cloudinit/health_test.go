package cloudinit

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	agentconfig "github.com/gpuaas/maas-sidecar/agent/config"
)

// agentConfigFile returns the agent config the user-data (MIME, or one
// #cloud-config document) writes.
func agentConfigFile(t *testing.T, ud []byte) string {
	t.Helper()
	docs := []string{string(ud)}
	if !bytes.HasPrefix(ud, []byte("#cloud-config")) {
		docs = nil
		for _, part := range splitMIME(t, ud) {
			docs = append(docs, part.Body)
		}
	}
	for _, doc := range docs {
		var cfg struct {
			WriteFiles []writeFile `yaml:"write_files"`
		}
		if err := yaml.Unmarshal([]byte(doc), &cfg); err != nil {
			t.Fatal(err)
		}
		for _, f := range cfg.WriteFiles {
			if f.Path == AgentConfigPath {
				return f.Content
			}
		}
	}
	t.Fatal("no agent config in the user-data")
	return ""
}

// TestBootstrapWritesTheHealthInterval: the daemon's health interval is
// the interval the agent reads from the config cloud-init writes, in the
// cloud-init and the manual bootstrap alike; none leaves the agent's
// default (60s).
func TestBootstrapWritesTheHealthInterval(t *testing.T) {
	for _, tt := range []struct {
		set, want time.Duration
	}{{5 * time.Second, 5 * time.Second}, {0, time.Minute}} {
		b := testBootstrap(t, map[string]AgentPackage{"amd64": amdPkg})
		b.AgentHealthInterval = tt.set
		ud, err := b.Render(testSpec("amd64/generic"))
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		manual, err := b.Manual("node-0001", testToken, "cloud_init")
		if err != nil {
			t.Fatalf("Manual: %v", err)
		}
		for name, ud := range map[string][]byte{"cloud-init": ud, "manual": manual} {
			c, err := agentconfig.Parse([]byte(agentConfigFile(t, ud)))
			if err != nil || c.Health.Interval != tt.want || c.Health.Off {
				t.Errorf("%s with %s: the agent reads health %+v (%v), want every %s", name, tt.set, c.Health, err, tt.want)
			}
		}
	}
}

// TestBootstrapRefusesABadHealthInterval names the field and renders
// nothing.
func TestBootstrapRefusesABadHealthInterval(t *testing.T) {
	for _, d := range []time.Duration{500 * time.Millisecond, -time.Second, 25 * time.Hour} {
		b := testBootstrap(t, map[string]AgentPackage{"amd64": amdPkg})
		b.AgentHealthInterval = d
		ud, err := b.Render(testSpec("amd64/generic"))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "agent.health_interval" || ud != nil {
			t.Errorf("Render with %s = %d bytes, %v; want a field error naming agent.health_interval", d, len(ud), err)
		}
	}
}
