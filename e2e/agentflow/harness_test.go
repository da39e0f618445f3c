package agentflow

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/systemd/fakesystemd"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// skewClock is the store's clock shifted by skew, sleeping in real time.
type skewClock struct {
	clockwork.Clock // real
	now             func() time.Time
	skew            time.Duration
}

// Now is the store's time plus the skew.
func (c skewClock) Now() time.Time { return c.now().Add(c.skew) }

// counter is a heartbeat handler that counts runs and may block.
type counter struct {
	runs  atomic.Int32
	block func(run int32) // called inside Run
}

func (c *counter) Run(ctx context.Context, _ task.Env, _ []byte) (task.Result, error) {
	n := c.runs.Add(1)
	if c.block != nil {
		c.block(n)
	}
	return task.Result{Message: "counted"}, nil
}

// writeFixture lays out the host files cloud-init would leave.
func writeFixture(t testing.TB, e *agentenv.Env, root, node string) config.Config {
	t.Helper()
	cfg := config.Defaults()
	cfg.APIURL, cfg.NodeID = e.URL, node
	cfg.PollTimeout, cfg.RetryInitial, cfg.RetryMax = 2*time.Second, 10*time.Millisecond, 50*time.Millisecond
	der, _ := x509.MarshalPKIXPublicKey(e.PKI.SigningPublicKey())
	cfg.SigningPublicKey = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	r := hostroot.Root(root)
	for path, body := range map[string]string{cfg.EnrollmentTokenPath: e.Token(node), cfg.CABundlePath: string(e.PKI.CABundlePEM())} {
		if err := os.MkdirAll(filepath.Dir(r.Path(path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(r.Path(path), []byte(body+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// startAgent runs an agent for node until the test ends.
func startAgent(t *testing.T, e *agentenv.Env, node string, h task.Handler, skew time.Duration) *agent.Agent {
	t.Helper()
	root := t.TempDir()
	cfg := writeFixture(t, e, root, node)
	clock := skewClock{clockwork.NewRealClock(), e.Clock.Now, skew}
	tr, err := mtls.New(cfg.APIURL, e.PKI.CABundlePEM(), clock)
	if err != nil {
		t.Fatal(err)
	}
	reg := task.NewRegistry()
	reg.Register("node.heartbeat_check", h)
	a, err := agent.New(agent.Options{Config: cfg, Root: hostroot.Root(root), State: state.Dir(filepath.Join(root, "state")),
		Transport: tr, Systemd: fakesystemd.New(), Registry: reg, Clock: clock,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return a
}

// eventually polls cond until it holds or 10 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
