package agentapi_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// stampede is the fleet that reconnects at once after a switch reboot.
const stampede = 1000

// Bounds of the stampede: memory and goroutines at the peak (client and
// server share this process), and what may remain once every agent left.
const (
	peakHeapPerAgent      = 192 << 10
	peakGoroutinesByAgent = 8
	leftHeap              = 32 << 20 // per-node state the API keeps (last contact), about 32 KiB a node at most
	leftGoroutines        = 50
)

// agentTally counts what the fleet saw.
type agentTally struct {
	mu         sync.Mutex
	deliveries map[string]int // task id -> times delivered
	served     atomic.Int64   // agents that got their task and a 204 after it
	throttled  atomic.Int64   // 429/503 answers honoured
	retried    atomic.Int64   // transport errors retried
}

func TestThousandAgentsReconnectingAtOnceAreEachServedTheirTaskOnceInBoundedMemory(t *testing.T) {
	// every agent of this process dials from 127.0.0.1: the per-source cap
	// and the unauthenticated share are lifted (flood_test.go holds them)
	e := agentenv.New(t, agentenv.Options{Lease: 5 * time.Minute, MaxWait: 2 * time.Second,
		Admission: connguard.Options{PerSource: 2 * stampede, UnauthenticatedPercent: 100}})
	nodes, certs, tasks := make([]string, stampede), make([]*tls.Certificate, stampede), map[string]string{}
	for i := range nodes {
		nodes[i] = e.Node(lifecycle.NodeActive)
		certs[i] = e.ClientCert(nodes[i])
		tasks[e.Enqueue(nodes[i], lifecycle.TaskHeartbeatCheck, map[string]any{}, time.Hour).ID] = nodes[i]
	}
	baseHeap, baseG := settled(0, 0)
	t.Logf("before: heap %d KiB, %d goroutines", baseHeap>>10, baseG)

	var tally *agentTally
	began := time.Now()
	peak := sampleUntil(func() { tally = runFleet(t, e, nodes, certs) })
	t.Logf("the fleet was served in %v", time.Since(began).Round(time.Millisecond))
	if n := tally.served.Load(); n != stampede {
		t.Fatalf("%d of %d agents were served", n, stampede)
	}
	for id, node := range tasks {
		if n := tally.deliveries[id]; n != 1 {
			t.Errorf("task %s of %s delivered %d times, want exactly once", id, node, n)
		}
		if task, err := e.Store.GetTask(e.Ctx, id); err != nil || task.State != lifecycle.TaskSucceeded {
			t.Errorf("task %s: %v %v, want succeeded", id, task.State, err)
		}
	}
	heap, g := settled(baseHeap+leftHeap, baseG+leftGoroutines)
	t.Logf("peak: heap %d KiB, %d goroutines; after: heap %d KiB, %d goroutines; %d throttled, %d retried",
		peak.heap>>10, peak.goroutines, heap>>10, g, tally.throttled.Load(), tally.retried.Load())
	if lim := baseHeap + stampede*peakHeapPerAgent; peak.heap > lim {
		t.Errorf("peak heap %d KiB over the bound of %d KiB", peak.heap>>10, lim>>10)
	}
	if lim := baseG + stampede*peakGoroutinesByAgent; peak.goroutines > lim {
		t.Errorf("peak %d goroutines over the bound of %d", peak.goroutines, lim)
	}
	if heap > baseHeap+leftHeap || g > baseG+leftGoroutines {
		t.Errorf("after the stampede: heap %d KiB, %d goroutines; before %d KiB, %d", heap>>10, g, baseHeap>>10, baseG)
	}
}

// runFleet starts every agent at once and waits for all of them.
func runFleet(t *testing.T, e *agentenv.Env, nodes []string, certs []*tls.Certificate) *agentTally {
	tally := &agentTally{deliveries: map[string]int{}}
	// The bound is for a fleet that never gets served, not a speed
	// target (the benchmark measures that): a loaded 2-core machine under
	// the race detector has taken over 60 s.
	ctx, cancel := context.WithTimeout(e.Ctx, 3*time.Minute)
	defer cancel()
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, len(nodes))
	for i := range nodes {
		c, err := mtls.New(e.URL, e.PKI.CABundlePEM(), nil)
		if err != nil {
			t.Fatal(err)
		}
		c.SetIdentity(certs[i])
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.SetIdentity(nil) // drops the agent's pooled connection
			<-start
			if err := agentReconnects(ctx, c, nodes[i], tally); err != nil {
				errs <- err
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	return tally
}

// agentReconnects is one agent after the reboot: it polls until its task
// comes, honouring Retry-After and retrying broken connections, reports
// it, then polls once more and must find nothing.
func agentReconnects(ctx context.Context, c *mtls.Client, node string, tally *agentTally) error {
	for {
		task, err := c.Wait(ctx, node, 2*time.Second)
		var p *wire.Problem
		switch {
		case errors.As(err, &p) && p.RetryAfter > 0:
			tally.throttled.Add(1)
			time.Sleep(p.RetryAfter)
			continue
		case err != nil && ctx.Err() == nil:
			tally.retried.Add(1)
			time.Sleep(100 * time.Millisecond)
			continue
		case err != nil:
			return fmt.Errorf("agent %s never got its task: %w", node, err)
		case task == nil:
			return fmt.Errorf("agent %s: poll found no task while its task was queued", node)
		}
		tally.mu.Lock()
		tally.deliveries[task.ID]++
		tally.mu.Unlock()
		if task.NodeID != node {
			return fmt.Errorf("agent %s got task %s of %s", node, task.ID, task.NodeID)
		}
		if err := c.Report(ctx, node, task.ID, wire.Result{Seq: task.Seq, Success: true, FinishedAt: time.Now()}); err != nil {
			return fmt.Errorf("agent %s: report %s: %w", node, task.ID, err)
		}
		break
	}
	again, err := c.Wait(ctx, node, 0)
	if err != nil || again != nil {
		return fmt.Errorf("agent %s: poll after its task = %v, %v; want nothing", node, again, err)
	}
	tally.served.Add(1)
	return nil
}

type usage struct {
	heap       uint64
	goroutines int
}

// sampleUntil runs f while sampling the heap in use and the goroutines
// every 50ms, and returns the highest of each.
func sampleUntil(f func()) usage {
	var peak usage
	var mu sync.Mutex
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak.heap, peak.goroutines = max(peak.heap, ms.HeapInuse), max(peak.goroutines, runtime.NumGoroutine())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak
}

// settled collects garbage until the heap in use and the goroutines are
// at most the given bounds (zero: no bound), for up to 10s, and returns
// the last figures.
func settled(heapBound uint64, gBound int) (uint64, int) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		g := runtime.NumGoroutine()
		if (heapBound == 0 || ms.HeapInuse <= heapBound) && (gBound == 0 || g <= gBound) || time.Now().After(deadline) {
			return ms.HeapInuse, g
		}
		time.Sleep(100 * time.Millisecond)
	}
}
