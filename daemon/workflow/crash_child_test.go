package workflow_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// TestMain turns the test binary into the crash test's daemon when asked:
// a separate process running the store, the runner, the onboarding
// workflow and the agent API, that the parent kills with SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("CRASH_CHILD") == "1" {
		if err := crashChild(); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashChild runs until every run is terminal, then exits 0.
func crashChild() error {
	dir, maasURL, agentAddr := os.Getenv("CRASH_DIR"), os.Getenv("CRASH_MAAS"), os.Getenv("CRASH_AGENT")
	n, _ := strconv.Atoi(os.Getenv("CRASH_RUNS"))
	st, err := bolt.Open(filepath.Join(dir, "s.db"), bolt.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := seedCrashSite(ctx, st, maasURL, n); err != nil {
		return err
	}
	p, err := pki.Open(pki.Options{Dir: filepath.Join(dir, "pki")})
	if err != nil {
		return err
	}
	sec := newMemSecrets()
	sec.put("kv/maas-sites/site-1/api-token", map[string]string{"token": apiKey})
	sec.put("kv/maas-sites/site-1/power/default", map[string]string{"user": "root", "pass": "bmc-pass-1"})
	sec.put("kv/maas-sites/site-1/deploy-password", map[string]string{"password": "deploy-pass-1"})
	var r *runner.Runner
	// The agent API wakes the runs parked on a node when its agent
	// reports a result (the onboarding acceptance), as the daemon wires it.
	api := agentapi.New(agentapi.Config{Store: wakeOnResult{st, func(k string) { r.Wake(k) }}, Authority: p, Signer: p, Logger: quiet(),
		OnEnrolled: func(_ context.Context, nd lifecycle.Node) error { r.Wake(lifecycle.NodeKey(nd.ID)); return nil }})
	b := testBootstrap()
	b.AgentAPIURL, b.CABundlePEM, b.SigningPublicKey = "https://"+agentAddr, string(p.CABundlePEM()), string(p.SigningPublicKeyPEM())
	b.RackURL = strings.TrimSuffix(maasURL, "/")
	deps := workflow.Deps{Store: st, Connector: maasConnector{}, Secrets: secrets.NewStore(sec), Power: noPower{}, Bootstrap: b,
		Enrollment: pki.Enrollment{PKI: p, Store: st}, Tasks: agentapi.Queue{Store: st, Notifier: api.Notifier()},
		NewID: func() (string, error) { return lifecycle.NewID(nil) }, Recheck: 50 * time.Millisecond}
	r = runner.New(runner.Options{Store: st, Holder: "crash-child", Logger: quiet(), LeaseTTL: time.Second,
		Defs: deps.Defs, Backoff: 20 * time.Millisecond})
	if err := serveAgents(ctx, api, p, agentAddr); err != nil {
		return err
	}
	go r.Run(ctx)
	poller := &workflow.Poller{Deps: deps, Sites: st.ListSites, Wake: r.Wake, Interval: 20 * time.Millisecond, Logger: quiet()}
	go poller.Run(ctx)
	return untilAllTerminal(ctx, st)
}

func serveAgents(ctx context.Context, api *agentapi.API, p *pki.PKI, addr string) error {
	var ln net.Listener
	var err error
	for i := 0; i < 100; i++ { // the killed incarnation's socket may linger briefly
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	cert, err := p.ServerCertificate([]string{"127.0.0.1"})
	if err != nil {
		return err
	}
	cfg, err := agentapi.TLSConfig(cert, p.CABundlePEM())
	if err != nil {
		return err
	}
	srv := &agentapi.Server{Listener: ln, Handler: api.Handler(), TLS: cfg, ShutdownTimeout: time.Second, Logger: quiet()}
	go srv.Run(ctx)
	return nil
}

// seedCrashSite creates the site and the batch once (first incarnation).
func seedCrashSite(ctx context.Context, st *bolt.Store, maasURL string, n int) error {
	if _, err := st.GetSite(ctx, "site-1"); err == nil {
		return nil
	}
	site := lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1", APIBaseURL: maasURL,
		PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults()
	pol := lifecycle.DefaultSitePolicy("site-1")
	pol.BatchMaxParallel = 8
	if err := st.CreateSite(ctx, site, pol); err != nil {
		return err
	}
	var runs []lifecycle.Run
	for i := 0; i < n; i++ {
		runs = append(runs, lifecycle.Run{ID: fmt.Sprintf("run-%03d", i), Kind: lifecycle.RunOnboarding, SiteID: "site-1",
			Hostname: fmt.Sprintf("c10u%02d", i), IPMIIP: fmt.Sprintf("10.176.19.%d", i+10), Status: lifecycle.JobPending})
	}
	_, err := st.Submit(ctx, lifecycle.Submission{Batch: &lifecycle.Batch{ID: "batch-1", SiteID: "site-1",
		Kind: lifecycle.RunOnboarding}, Runs: runs})
	return err
}

func untilAllTerminal(ctx context.Context, st *bolt.Store) error {
	for {
		runs, err := st.ListRuns(ctx, lifecycle.RunFilter{SiteID: "site-1"})
		if err != nil {
			return err
		}
		done := 0
		for _, r := range runs {
			if r.Status.Terminal() || r.Status.Failed() {
				done++
			}
		}
		if done == len(runs) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noPower: the crash test's machines are all found or created in MAAS,
// never PXE-discovered.
type noPower struct{}

func (noPower) PXEBootCycle(context.Context, lifecycle.BMCLogin) error {
	return lifecycle.Errorf(lifecycle.CodeUnavailable, "power", "no direct BMC access in this test")
}
