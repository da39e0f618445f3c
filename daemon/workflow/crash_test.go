package workflow_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// TestCrashAnywhereConverges runs the daemon core as a separate process,
// SIGKILLs it at random moments across a batch, restarts it, and proves
// every run converges with no MAAS side effect issued twice. The
// simulator's request log, in this process, is the oracle.
func TestCrashAnywhereConverges(t *testing.T) {
	const runs, kills = 12, 8
	sim, err := maassim.New(maassim.Options{APIKey: apiKey, Speed: 600, Seed: 11, TickInterval: 5 * time.Millisecond})
	must(t, err)
	log := &requestLog{}
	srv := httptest.NewServer(log.wrap(sim))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sim.Run(ctx)
	for i := 0; i < runs; i++ {
		sim.AddHost(maassim.HostSpec{PowerAddress: fmt.Sprintf("10.176.19.%d", i+10)})
	}
	sim.OnBoot(func(b maassim.Boot) {
		if _, err := simhost.Boot(ctx, t.TempDir(), b.UserData, simhost.Options{PollTimeout: time.Second,
			RetryInitial: 20 * time.Millisecond, RetryMax: 200 * time.Millisecond}); err != nil {
			t.Errorf("boot %s: %v", b.Hostname, err)
		}
	})
	dir, agentAddr := t.TempDir(), freeport.Addr(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	inFlight := 0
	for k := 0; k < kills; k++ {
		child := startChild(t, dir, srv.URL+"/MAAS/", agentAddr, runs)
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		child.Process.Signal(syscall.SIGKILL)
		child.Wait()
		inFlight += runningRuns(t, dir)
	}
	if inFlight == 0 {
		t.Fatal("no kill found a run in flight: the test proved nothing")
	}
	t.Logf("%d runs were in flight across %d kills", inFlight, kills)
	final := startChild(t, dir, srv.URL+"/MAAS/", agentAddr, runs)
	done := make(chan error, 1)
	go func() { done <- final.Wait() }()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(90 * time.Second):
		final.Process.Kill()
		<-done // the goroutine's Wait reaps it
		dumpRuns(t, dir)
		t.Fatal("the restarted daemon did not converge within 90s")
	}
	checkConverged(t, dir, log, runs)
}

func startChild(t *testing.T, dir, maasURL, agentAddr string, runs int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CRASH_CHILD=1", "CRASH_DIR="+dir, "CRASH_MAAS="+maasURL,
		"CRASH_AGENT="+agentAddr, fmt.Sprintf("CRASH_RUNS=%d", runs))
	cmd.Stderr = os.Stderr
	must(t, cmd.Start())
	return cmd
}

// checkConverged: every run completed with its node active, and per
// machine exactly one create, one deploy and no release.
func checkConverged(t *testing.T, dir string, log *requestLog, n int) {
	st, err := bolt.Open(filepath.Join(dir, "s.db"), bolt.Options{})
	must(t, err)
	defer st.Close()
	ctx := context.Background()
	rs, err := st.ListRuns(ctx, lifecycle.RunFilter{})
	must(t, err)
	if len(rs) != n {
		t.Fatalf("%d runs, want %d", len(rs), n)
	}
	for _, r := range rs {
		if r.Status != lifecycle.JobCompleted {
			t.Errorf("%s (%s) is %s at %s: %s", r.ID, r.Hostname, r.Status, r.CurrentStage, r.ErrorMessage)
			continue
		}
		node, err := st.GetNode(ctx, r.NodeID)
		if err != nil || node.Status != lifecycle.NodeActive {
			t.Errorf("%s: node %v %v", r.Hostname, node.Status, err)
		}
		for op, want := range map[string]int{"deploy": 1, "release": 0, "abort": 0} {
			if got := log.count(r.MaasSystemID, "POST", op); got != want {
				t.Errorf("%s: %d %s calls, want %d", r.Hostname, got, op, want)
			}
		}
	}
	creates := 0
	log.mu.Lock()
	for _, c := range log.calls {
		if strings.HasPrefix(c, "POST /MAAS/api/2.0/machines/ ") && strings.HasSuffix(c, " ") {
			creates++
		}
	}
	log.mu.Unlock()
	if creates != n {
		t.Errorf("%d machine creations for %d hosts", creates, n)
	}
	nodes, _ := st.ListNodes(ctx, lifecycle.NodeFilter{})
	if len(nodes) != n {
		t.Errorf("%d node records for %d hosts", len(nodes), n)
	}
}

func runningRuns(t *testing.T, dir string) int {
	st, err := bolt.Open(filepath.Join(dir, "s.db"), bolt.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		return 0 // killed before it created the store
	}
	defer st.Close()
	rs, _ := st.ListRuns(context.Background(), lifecycle.RunFilter{Statuses: []lifecycle.JobState{lifecycle.JobRunning}})
	return len(rs)
}

func dumpRuns(t *testing.T, dir string) {
	st, err := bolt.Open(filepath.Join(dir, "s.db"), bolt.Options{LockTimeout: 5 * time.Second})
	must(t, err)
	defer st.Close()
	rs, _ := st.ListRuns(context.Background(), lifecycle.RunFilter{})
	for _, r := range rs {
		if r.Status == lifecycle.JobCompleted {
			continue
		}
		evs, _ := st.ListRunEvents(context.Background(), r.ID, 0, 0)
		var b strings.Builder
		for _, e := range evs {
			fmt.Fprintf(&b, "  %s#%d %s %s\n", e.Stage, e.Attempt, e.Status, e.Message)
		}
		t.Logf("%s %s %s at %s wait=%v keys=%v %s\n%s", r.ID, r.Hostname, r.Status, r.CurrentStage, r.WaitUntil, r.WaitKeys, r.ErrorMessage, b.String())
	}
}
