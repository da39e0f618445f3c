package workflow_test

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// memSecrets is an in-memory KV store standing in for Vault in these
// workflow tests (the Vault adapter has its own tests against a real Vault).
type memSecrets struct {
	mu    sync.Mutex
	data  map[string]map[string]string
	reads map[string]int
}

func newMemSecrets() *memSecrets {
	return &memSecrets{data: map[string]map[string]string{}, reads: map[string]int{}}
}

func (m *memSecrets) put(path string, v map[string]string) {
	m.mu.Lock()
	m.data[path] = maps.Clone(v)
	m.mu.Unlock()
}

func (m *memSecrets) Read(_ context.Context, path string) (map[string]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads[path]++
	v, ok := m.data[path]
	if !ok {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.Read", "no secret at %s", path)
	}
	return maps.Clone(v), nil
}

func (m *memSecrets) Write(_ context.Context, path string, v map[string]string) error {
	m.put(path, v)
	return nil
}

// maasConnector opens the simulator's MAAS as the daemon does.
type maasConnector struct{}

func (maasConnector) Connect(baseURL string, apiKey lifecycle.Secret) (workflow.MAAS, error) {
	c, err := maas.New(maas.Config{BaseURL: baseURL, APIKey: apiKey})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// simPower drives the simulated hosts' BMCs for the PXE discovery path.
type simPower struct{ s *site }

func (p simPower) PXEBootCycle(ctx context.Context, b lifecycle.BMCLogin) error {
	p.s.mu.Lock()
	bmc := p.s.hosts[b.Address]
	p.s.mu.Unlock()
	if bmc == nil {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, "power", "BMC %s does not answer", b.Address)
	}
	if err := bmc.SetBootDevice(ctx, maassim.BootPXE); err != nil {
		return err
	}
	if err := bmc.SetPower(ctx, false); err != nil {
		return err
	}
	return bmc.SetPower(ctx, true)
}

// booted is what a deployed host does on first boot: its agent enrolls
// (the agent API records it and wakes the run).
func (s *site) booted(b maassim.Boot) {
	if s.enroll != nil {
		s.enroll(b)
		return
	}
	s.enrollHost(b.Hostname)
}

func (s *site) enrollHost(hostname string) {
	ctx := context.Background()
	nodes, _ := s.store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: "site-1", Hostname: hostname})
	for _, n := range nodes {
		if n.Status == lifecycle.NodeEnrolling {
			now := time.Now()
			s.store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error { x.EnrolledAt = &now; return nil })
			s.runner.Wake(lifecycle.NodeKey(n.ID))
		}
	}
}

// The test agent packages' digests, one per architecture.
var amdSHA, armSHA = strings.Repeat("0", 64), strings.Repeat("a1", 32)

func testBootstrap() cloudinit.Bootstrap {
	pub, _, _ := ed25519.GenerateKey(nil)
	der, _ := x509.MarshalPKIXPublicKey(pub)
	return cloudinit.Bootstrap{AgentAPIURL: "https://region.example:5291",
		AgentPackages: map[string]cloudinit.AgentPackage{
			"amd64": {URL: "https://region.example/gpuaas-node-agent_amd64.deb", SHA256: amdSHA},
			"arm64": {URL: "https://region.example/gpuaas-node-agent_arm64.deb", SHA256: armSHA}},
		CABundlePEM:      testCA,
		SigningPublicKey: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))}
}

// storeTasks queues tasks straight into the store (no agent API to wake).
type storeTasks struct{ st lifecycle.TaskStore }

func (q storeTasks) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	return q.st.EnqueueTask(ctx, t)
}

// acceptingTasks is the site's default task queue: storeTasks whose
// onboarding acceptance checks the enrolled host's agent answers with
// the site's accept (a pass unless a test changes it; nil leaves the
// task to the test's own agent).
type acceptingTasks struct{ s *site }

func (q acceptingTasks) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	out, created, err := q.s.store.EnqueueTask(ctx, t)
	q.s.mu.Lock()
	a := q.s.accept
	q.s.mu.Unlock()
	if err == nil && created && a != nil && isAcceptance(t) {
		go q.s.answerOne(t.NodeID, out.ID, a)
	}
	return out, created, err
}

func isAcceptance(t lifecycle.AgentTask) bool {
	var p wire.ValidateCleanPayload
	return t.Type == lifecycle.TaskValidateClean && json.Unmarshal(t.Payload, &p) == nil && p.Mode == wire.ModeOnboardingAcceptance
}

// answerOne answers node's tasks as a clean host's agent would (claim,
// run, report, waking the node's runs) until it has answered task id
// with a; the tasks queued before it (a hardware-sync reseed) succeed.
func (s *site) answerOne(nodeID, id string, a answer) {
	ctx := context.Background()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		t, ok, err := s.store.ClaimTask(ctx, nodeID, time.Minute)
		if err != nil || !ok {
			continue
		}
		res, answered := cleanHost(t)
		if t.ID == id {
			res, answered = a(t)
		}
		if answered {
			if _, err := s.store.CompleteTask(ctx, nodeID, t.ID, t.Seq, res); err == nil {
				s.runner.Wake(lifecycle.NodeKey(nodeID))
			}
		}
		if t.ID == id {
			return
		}
	}
}

// acceptClean is a clean host's answer to the onboarding acceptance: its
// validation in mode onboarding_acceptance passed, with the DCGM
// diagnostic run at the level the payload asked for.
func acceptClean(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
	var p wire.ValidateCleanPayload
	_ = json.Unmarshal(t.Payload, &p)
	res := result(t, true)
	var ev wire.Evidence
	_ = json.Unmarshal(res.Evidence, &ev)
	ev.Mode, ev.Diag = p.Mode, &wire.DiagEvidence{Tool: "dcgmi", State: "off", Passed: true}
	if p.DCGM != nil && !p.DCGM.Off {
		ev.Diag = &wire.DiagEvidence{Tool: "dcgmi", State: "ran", RequestedLevel: p.DCGM.Level, Level: p.DCGM.Level, Passed: true}
	}
	res.Evidence, _ = json.Marshal(ev)
	return res, true
}
