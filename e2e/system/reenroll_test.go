//go:build e2e

package system

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestRevokedAgentReenrollsWithoutRedeploy: an operator revokes an active
// node's agent certificate through the CLI; the real agent is refused (it
// says so once in its log, the daemon counts the refusals) and backs off;
// a fresh token issued through the CLI and placed at the agent's token
// path enrolls it again, the token file is removed, and the node is
// active, all without a second deploy in MAAS.
func TestRevokedAgentReenrollsWithoutRedeploy(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, noBossEvery: 0, speed: 600})
	host := hostnames(1)[0]
	batch, _ := w.onboard(host)
	if r := w.daemon.cli("", "onboarding", "watch", "--batch", batch); r.code != 0 {
		t.Fatalf("onboarding watch: %s", r)
	}
	node := w.runs(batch)[host].NodeID
	a := w.sim.agent(host)
	eventually(t, "the spent enrollment token removed from the host", func() bool { return !a.tokenExists() })
	if n := a.count(`"msg":"agent enrolled"`); n != 1 {
		t.Fatalf("agent enrolled %d times before the revoke, want 1", n)
	}

	w.daemon.ok("", "node", "revoke-certificate", node, "--reason", "e2e: host identity copied")
	eventually(t, "the agent logging the refusal", func() bool { return a.count("refuses this agent") == 1 })
	eventually(t, "the daemon counting several refusals", func() bool {
		return sample(scrape(t, w.daemon), "maas_sidecar_agent_auth_failures_total", map[string]string{"reason": "revoked"}) >= 3
	})
	if n := a.count("refuses this agent"); n != 1 {
		t.Errorf("the agent logged the refusal %d times, want once", n)
	}

	w.daemon.ok("", "node", "enrollment-token", node, "--reason", "e2e: re-enroll", "--output", a.tokenPath)
	eventually(t, "the agent enrolling again", func() bool { return a.count(`"msg":"agent enrolled"`) == 2 })
	eventually(t, "the new token removed from the host", func() bool { return !a.tokenExists() })
	eventually(t, "the node active", func() bool { return w.nodes()[host] == "active" })
	before := sample(scrape(t, w.daemon), "maas_sidecar_agent_auth_failures_total", map[string]string{"reason": "revoked"})
	time.Sleep(2 * time.Second) // several polls with the new certificate
	if after := sample(scrape(t, w.daemon), "maas_sidecar_agent_auth_failures_total", map[string]string{"reason": "revoked"}); after != before {
		t.Errorf("refusals went on after re-enrolling: %v -> %v", before, after)
	}
	w.checkNoDuplicates(map[string]int{"deploy": 1})
}

// agentHost is a booted machine's agent: its log and token file.
type agentHost struct {
	log, tokenPath string
}

// agent finds host's agent log and, from its config, its token path.
func (s *sim) agent(host string) agentHost {
	s.t.Helper()
	root := filepath.Join(s.bootDir, host)
	b, err := os.ReadFile(filepath.Join(root, "etc/gpuaas-node-agent/config.yaml"))
	if err != nil {
		s.t.Fatalf("agent config: %v", err)
	}
	cfg := struct {
		TokenPath string `yaml:"enrollment_token_path"`
	}{TokenPath: "/etc/gpuaas-node-agent/enrollment-token"}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		s.t.Fatalf("agent config: %v", err)
	}
	return agentHost{log: filepath.Join(s.bootDir, host+".log"), tokenPath: filepath.Join(root, cfg.TokenPath)}
}

func (a agentHost) count(sub string) int {
	b, _ := os.ReadFile(a.log)
	return bytes.Count(b, []byte(sub))
}

func (a agentHost) tokenExists() bool {
	_, err := os.Stat(a.tokenPath)
	return err == nil
}

// eventually polls cond for up to a minute and fails the test if it
// never holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
