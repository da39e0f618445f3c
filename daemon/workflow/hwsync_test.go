package workflow_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/netcheck"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// sshd listens on loopback as a deployed host's sshd would; the port
// comes back for the connectivity check. Closing it leaves nothing
// listening there.
func sshd(t *testing.T) (net.Listener, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	port, _ := strconv.Atoi(p)
	return ln, port
}

// loopbackSSHIface gives a Ready machine a static 127.0.0.1 link on its
// first RoCE NIC (as an operator would in MAAS) and makes that NIC the
// site's deploy_ssh_iface.
func loopbackSSHIface(t *testing.T, s *site, sid string) {
	t.Helper()
	ctx := context.Background()
	c := s.client(t)
	sn, err := c.CreateSubnet(ctx, "127.0.0.0/24", "loopback for the connectivity test")
	must(t, err)
	nics, err := c.NICs(ctx, sid)
	must(t, err)
	nic := nics[1] // nics[0] is the PXE NIC eno8303
	_, err = c.Link(ctx, sid, nic.ID, "static", sn.ID, "127.0.0.1")
	must(t, err)
	_, err = s.store.UpdateSite(ctx, "site-1", func(x *lifecycle.Site) error { x.DeploySSHIface = nic.Name; return nil })
	must(t, err)
}

// lastDetail is the last value a run's events (any stage) or its error
// details recorded for key.
func (s *site) lastDetail(id, key string) string {
	evs, err := s.store.ListRunEvents(context.Background(), id, 0, 0)
	must(s.t, err)
	v := ""
	for _, e := range evs {
		if x, ok := e.Details[key]; ok {
			v = x
		}
	}
	if r := s.run(id); r.ErrorDetails[key] != "" {
		v = r.ErrorDetails[key]
	}
	return v
}

func TestConnectivityOnTheDeploySSHIface(t *testing.T) {
	t.Run("reachable", func(t *testing.T) {
		t.Parallel()
		s := newSite(t)
		_, port := sshd(t)
		s.deps.Reach = netcheck.TCP{Port: port, Timeout: time.Second}
		loopbackSSHIface(t, s, readyMachine(t, s, "c13u01", "10.0.13.1", maassim.HostSpec{}))
		r := s.wait(s.onboard("c13u01", "10.0.13.1"), 30*time.Second)
		if r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
		}
		n, err := s.store.GetNode(context.Background(), r.NodeID)
		must(t, err)
		if n.Host != "127.0.0.1" || s.lastDetail(r.ID, "connectivity") != "reachable" ||
			!strings.HasPrefix(s.lastDetail(r.ID, "deploy_address_source"), "deploy_ssh_iface ") {
			t.Fatalf("host %q, connectivity %q, source %q", n.Host, s.lastDetail(r.ID, "connectivity"), s.lastDetail(r.ID, "deploy_address_source"))
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		t.Parallel()
		s := newSite(t)
		ln, port := sshd(t)
		ln.Close() // the host is up in MAAS, nothing answers on its address
		s.deps.Reach = netcheck.TCP{Port: port, Timeout: time.Second}
		sid := readyMachine(t, s, "c13u02", "10.0.13.2", maassim.HostSpec{})
		loopbackSSHIface(t, s, sid)
		r := s.wait(s.onboard("c13u02", "10.0.13.2"), 30*time.Second)
		want := lifecycle.FailPostDeployConnectivity.DefaultHandling()
		if r.Status != want.LandsIn || r.FailureClass != lifecycle.FailPostDeployConnectivity ||
			r.CurrentStage != lifecycle.StageEnsureHardwareSync || r.RecommendedAction != lifecycle.ActionRetryStage {
			t.Fatalf("%s/%s at %s recommending %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.RecommendedAction, r.ErrorMessage, s.events(r.ID))
		}
		if r.CurrentAttempt != want.MaxAttempts || !strings.Contains(r.ErrorMessage, "127.0.0.1") || r.ErrorDetails["deploy_address"] != "127.0.0.1" {
			t.Fatalf("attempt %d, message %q, details %v", r.CurrentAttempt, r.ErrorMessage, r.ErrorDetails)
		}
		if n := s.log.count(sid, "POST", "release"); n != 0 {
			t.Fatalf("a post-deploy failure released the machine (%d)", n)
		}
	})
	t.Run("no address on deploy_ssh_iface falls back to the first MAAS IP", func(t *testing.T) {
		t.Parallel()
		s := newSite(t)
		readyMachine(t, s, "c13u03", "10.0.13.3", maassim.HostSpec{})
		_, err := s.store.UpdateSite(context.Background(), "site-1", func(x *lifecycle.Site) error { x.DeploySSHIface = "ens1f0np0"; return nil })
		must(t, err)
		r := s.wait(s.onboard("c13u03", "10.0.13.3"), 30*time.Second)
		if r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s: %s", r.Status, r.ErrorMessage)
		}
		n, _ := s.store.GetNode(context.Background(), r.NodeID)
		if src := s.lastDetail(r.ID, "deploy_address_source"); !strings.HasPrefix(src, "first MAAS IP") || !strings.HasPrefix(n.Host, "10.16.") {
			t.Fatalf("source %q, host %q", src, n.Host)
		}
	})
}

// signalSync reports a hardware-sync cycle to MAAS as the host's timer
// does: a signal on the metadata API signed with the machine token.
func signalSync(t *testing.T, s *site, sid string) {
	t.Helper()
	tok, err := s.client(t).MachineToken(context.Background(), sid)
	must(t, err)
	auth := fmt.Sprintf(`OAuth oauth_consumer_key="%s", oauth_token="%s", oauth_signature_method="PLAINTEXT", `+
		`oauth_signature="%s", oauth_timestamp="%d", oauth_nonce="n%d", oauth_version="1.0"`, tok.ConsumerKey, tok.TokenKey,
		url.QueryEscape("&"+tok.TokenSecret.Reveal()), time.Now().Unix(), time.Now().UnixNano())
	req, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/MAAS/metadata/status/"+sid, strings.NewReader("op=signal&status=OK"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("signal: %d", resp.StatusCode)
	}
}

// reseedTask waits for the run's node.hw_sync_reseed task.
func (s *site) reseedTask(runID string) lifecycle.AgentTask {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		r := s.run(runID)
		if r.NodeID != "" {
			ts, err := s.store.ListTasks(context.Background(), lifecycle.TaskFilter{NodeID: r.NodeID, Type: lifecycle.TaskHWSyncReseed})
			must(s.t, err)
			if len(ts) > 0 {
				return ts[0]
			}
		}
		if r.Status.Terminal() || r.Status.Failed() {
			s.t.Fatalf("run ended %s without a reseed: %s\n%s", r.Status, r.ErrorMessage, s.events(runID))
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatal("no reseed was queued")
	return lifecycle.AgentTask{}
}

// stillWaiting checks the run stays in wait_for_hardware_sync for d.
func (s *site) stillWaiting(id string, d time.Duration) {
	s.t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if r := s.run(id); r.Status != lifecycle.JobRunning || r.CurrentStage != lifecycle.StageWaitForHardwareSync {
			s.t.Fatalf("run left the hardware-sync wait: %s at %s\n%s", r.Status, r.CurrentStage, s.events(id))
		}
	}
}

// An admin turns enable_hw_sync off while the machine deploys: the
// workflow turns it back on in MAAS, reseeds through the agent, and
// completes only once MAAS has seen a sync after that.
func TestHWSyncTurnedOffOutOfBandIsRepaired(t *testing.T) {
	s := newSite(t)
	sid := readyMachine(t, s, "c13u10", "10.0.13.10", maassim.HostSpec{})
	afterDeploy(s, func(sid string) {
		if err := s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, false, 900, time.Time{}); err != nil {
			t.Error(err)
		}
	})
	id := s.onboard("c13u10", "10.0.13.10")
	s.reseedTask(id)
	s.stillWaiting(id, 300*time.Millisecond)
	m, err := s.client(t).Machine(context.Background(), sid)
	must(t, err)
	if !m.HWSyncEnabled || m.SyncInterval != 15*time.Minute {
		t.Fatalf("enable_hw_sync %v, sync_interval %v after the repair", m.HWSyncEnabled, m.SyncInterval)
	}
	if got := s.lastDetail(id, "enable_hw_sync"); got != "was off in MAAS; turned back on" {
		t.Fatalf("details: enable_hw_sync %q", got)
	}
	signalSync(t, s, sid)
	if r := s.wait(id, 20*time.Second); r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
}

// A stale sync is acted on: the workflow queues a reseed and waits for a
// last_sync later than it; an older one, healthy by age, does not do.
func TestStaleSyncReseedsAndWaitsForAFreshCycle(t *testing.T) {
	s := newSite(t)
	sid := readyMachine(t, s, "c13u11", "10.0.13.11", maassim.HostSpec{})
	// Right after ensure_hardware_sync reads the token (the first read
	// after the deploy), the host's sync timer is found to have stopped
	// an hour ago.
	var mu sync.Mutex
	var deployed, staled bool
	s.log.setAfter(func(call string) {
		mu.Lock()
		defer mu.Unlock()
		deployed = deployed || strings.HasSuffix(call, "/"+sid+"/ deploy")
		if deployed && strings.HasSuffix(call, "/"+sid+"/ get_token") && !staled {
			staled = true
			must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, true, 900, time.Now().Add(-time.Hour)))
		}
	})
	id := s.onboard("c13u11", "10.0.13.11")
	task := s.reseedTask(id)
	if task.RunID != id || !strings.Contains(string(task.Payload), sid) {
		t.Fatalf("reseed task %+v", task)
	}
	// A sync stamped before the reseed is healthy by age but not fresh.
	must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, true, 900, task.CreatedAt.Add(-time.Second)))
	s.stillWaiting(id, 300*time.Millisecond)
	signalSync(t, s, sid)
	r := s.wait(id, 20*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	ts, _ := s.store.ListTasks(context.Background(), lifecycle.TaskFilter{NodeID: r.NodeID, Type: lifecycle.TaskHWSyncReseed})
	if len(ts) != 1 {
		t.Fatalf("%d reseed tasks, want 1 (one per interval and a half)", len(ts))
	}
}

// The site's hardware_sync_interval is re-asserted in MAAS only when it
// differs.
func TestHardwareSyncIntervalDriftIsSet(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	must(t, s.client(t).SetHardwareSyncInterval(ctx, 5*time.Minute)) // changed out of band
	setConfigs := func() int {
		s.log.mu.Lock()
		defer s.log.mu.Unlock()
		n := 0
		for _, c := range s.log.calls {
			if c == "POST /MAAS/api/2.0/maas/ set_config" {
				n++
			}
		}
		return n
	}
	base := setConfigs()
	for i, host := range []string{"c13u20", "c13u21"} {
		ip := fmt.Sprintf("10.0.13.%d", 20+i)
		readyMachine(t, s, host, ip, maassim.HostSpec{})
		if r := s.wait(s.onboard(host, ip), 30*time.Second); r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s: %s", r.Status, r.ErrorMessage)
		}
		if got := setConfigs() - base; got != 1 {
			t.Fatalf("after onboarding %s: %d set_config calls, want 1", host, got)
		}
	}
	if d, err := s.client(t).HardwareSyncInterval(ctx); err != nil || d != 15*time.Minute {
		t.Fatalf("MAAS hardware_sync_interval %v %v, want the policy's 15m", d, err)
	}
}

// A site whose policy requires hardware sync fails its preflight on a
// MAAS too old to show enable_hw_sync, naming the capability.
func TestPreflightMissingCapability(t *testing.T) {
	s := newSiteWith(t, siteOptions{maasVersion: "3.3.2"})
	r := s.wait(s.onboard("c13u30", "10.0.13.30"), 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailSiteCapabilityMissing ||
		r.CurrentStage != lifecycle.StageLoadSiteConfig || !strings.Contains(r.ErrorMessage, "hardware_sync") ||
		r.ErrorDetails["missing_capability"] != "hardware_sync" {
		t.Fatalf("%s/%s at %s: %s %v", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, r.ErrorDetails)
	}
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	for _, c := range s.log.calls {
		switch c {
		case "GET /MAAS/api/2.0/version/ ", "GET /MAAS/api/2.0/users/ whoami", "GET /MAAS/api/2.0/machines/ ": // the poller's list
		default:
			t.Fatalf("the run went on past its preflight: %s", c)
		}
	}
}

// TestPreflightRefusesANonAdminKey: a site whose MAAS key is a non-admin
// user's stops at its preflight (site_capability_missing, naming the
// user), before any MAAS call that changes something.
func TestPreflightRefusesANonAdminKey(t *testing.T) {
	s := newSite(t)
	site, err := s.store.GetSite(context.Background(), "site-1")
	must(t, err)
	s.secrets.put(site.APITokenVaultPath, map[string]string{"token": userKey})
	r := s.wait(s.onboard("c13u31", "10.0.13.31"), 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailSiteCapabilityMissing ||
		r.CurrentStage != lifecycle.StageLoadSiteConfig || !strings.Contains(r.ErrorMessage, "not a MAAS admin") {
		t.Fatalf("%s/%s at %s: %s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage)
	}
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	for _, c := range s.log.calls {
		if !strings.HasPrefix(c, "GET ") {
			t.Fatalf("the run changed MAAS: %s", c)
		}
	}
}
