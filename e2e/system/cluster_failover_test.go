//go:build e2e && dqlite

package system

import (
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failoverBound is the longest the issue allows from the death of a
// site's lease holder to the first stage progress on a survivor.
const failoverBound = 15 * time.Second

// TestClusterFailover: a batch of 20 onboardings submitted through one
// member of a three-daemon dqlite cluster; the site's lease holder is
// SIGKILLed mid-batch. A survivor takes the lease over with a higher
// epoch and drives every run to completion: the first stage event after
// the kill comes within failoverBound; the request log shows one deploy
// per machine and no release, abort or power call, and no MAAS request
// from the dead member after its death.
func TestClusterFailover(t *testing.T) {
	const batchSize = 20
	c := newCluster(t, simOptions{machines: batchSize, speed: 600})
	before, holder, survivor, batch, ids := c.startBatch(batchSize)

	// Mid-batch: some runs past their first stages, none finished.
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, stages := c.runningRuns(batch)
		if n >= batchSize/2 && len(stages) > 0 && stages["preflight"] < n {
			t.Logf("killing %s (lease epoch %d) with %d runs in flight %v", before.Holder, before.Epoch, n, stages)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch never had half its runs in flight: %v", c.runs(batch))
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.proxy.setDown(holder, true)
	killed := time.Now()
	c.members[holder].proc.kill()

	watch := c.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 20") {
		t.Fatalf("after the kill, onboarding watch --batch through %s: %s", c.names[survivor], watch)
	}
	after := c.lease(survivor)
	if after.Holder == before.Holder || after.Epoch <= before.Epoch {
		t.Errorf("lease after the kill %+v, want another holder with an epoch above %d", after, before.Epoch)
	}
	host, first, ok := c.firstEventAfter(survivor, ids, killed)
	if !ok {
		t.Fatal("no run event after the kill")
	}
	took := first.OccurredAt.Sub(killed)
	t.Logf("failover: kill of %s -> first stage progress on %s (%s %s %s) in %v (lease TTL %v)",
		before.Holder, after.Holder, host, first.Stage, first.Status, took.Round(time.Millisecond), leaseTTL)
	if took > failoverBound {
		t.Errorf("first stage progress %v after the kill, want at most %v", took, failoverBound)
	}
	if first.Holder != after.Holder || first.Epoch != after.Epoch {
		t.Errorf("the first event after the kill was written by %s@%d, want %s@%d", first.Holder, first.Epoch, after.Holder, after.Epoch)
	}
	if evs := c.eventsAfterBy(survivor, ids, killed, before.Holder); len(evs) > 0 {
		t.Errorf("events after the kill name the killed %s: %v", before.Holder, evs)
	}

	nodes := c.nodes()
	for h, r := range c.runs(batch) {
		if r.Status != "completed" || nodes[h] != "active" {
			t.Errorf("%s: run %s at %s (%s), node %q", h, r.Status, r.Stage, r.Error, nodes[h])
		}
	}
	c.checkNoDuplicates(map[string]int{"deploy": 1})
	if eff := c.sim.effects(); len(eff) != batchSize {
		t.Errorf("%d machines saw side effects, want %d", len(eff), batchSize)
	}
	for _, r := range c.sim.requestsBy(before.Holder) {
		if r.Time.After(killed) {
			t.Errorf("the killed %s made a MAAS request after its death: %+v", before.Holder, r)
		}
	}
	if len(c.sim.requestsBy(after.Holder)) == 0 {
		t.Errorf("the request log names no request from %s: the User-Agent does not carry the daemon name", after.Holder)
	}
}

// TestClusterFencing: the site's lease holder is frozen with SIGSTOP
// mid-batch, past its lease TTL; a survivor takes the site over. Resumed
// with SIGCONT, the old holder issues no MAAS request (the request log
// names the caller by User-Agent) and writes no journal entry: it logs
// that it lost the site, and every run completes with one deploy per
// machine, driven by the survivor.
func TestClusterFencing(t *testing.T) {
	const batchSize = 6
	c := newCluster(t, simOptions{machines: batchSize, speed: 300})
	before, holder, survivor, batch, ids := c.startBatch(batchSize)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if n, stages := c.runningRuns(batch); n == batchSize && stages["preflight"] < n {
			t.Logf("freezing %s with runs in flight %v", before.Holder, stages)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch never had all its runs in flight: %v", c.runs(batch))
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.proxy.setDown(holder, true)
	c.signal(holder, syscall.SIGSTOP)
	frozen := time.Now()
	after := c.waitLease(survivor, 30*time.Second, func(l leaseView) bool { return l.Holder != before.Holder })
	if after.Epoch <= before.Epoch {
		t.Errorf("lease taken over at epoch %d, want above %d", after.Epoch, before.Epoch)
	}
	// Let the survivor make progress, then wake the old holder.
	if _, _, ok := c.waitEventAfter(survivor, ids, frozen, 30*time.Second); !ok {
		t.Fatal("no stage progress on the survivor")
	}
	c.signal(holder, syscall.SIGCONT)
	resumed := time.Now()
	t.Logf("%s frozen for %v; %s took over at epoch %d", before.Holder, resumed.Sub(frozen).Round(time.Millisecond), after.Holder, after.Epoch)

	watch := c.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 6") {
		t.Fatalf("onboarding watch --batch through %s: %s", c.names[survivor], watch)
	}
	// A side effect is a call that changes MAAS (POST, PUT, DELETE); the
	// resumed member's feed may still read (its events poll) until its
	// lease loss stops the site's loops.
	for _, r := range c.sim.requestsBy(before.Holder) {
		if r.Time.After(resumed) && r.Method != http.MethodGet {
			t.Errorf("the resumed %s changed MAAS: %+v", before.Holder, r)
		}
	}
	c.checkNoDuplicates(map[string]int{"deploy": 1})
	if evs := c.eventsAfterBy(survivor, ids, resumed, before.Holder); len(evs) > 0 {
		t.Errorf("events after SIGCONT name the frozen %s: %v", before.Holder, evs)
	}
	if l := c.lease(holder); l.Holder != after.Holder || l.Epoch != after.Epoch {
		t.Errorf("lease through the resumed member %+v, want %+v", l, after)
	}
	old := c.members[holder].proc
	old.waitLine(10*time.Second, `"site lease`, c.site)
	t.Logf("the resumed member's log after SIGCONT:\n%s", linesWith(old.out.String(), "lease", "journal"))
}

// waitEventAfter waits for a run event after at, read through member i.
func (c *cluster) waitEventAfter(i int, ids map[string]string, at time.Time, timeout time.Duration) (string, runEvent, bool) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if h, e, ok := c.firstEventAfter(i, ids, at); ok {
			return h, e, true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return "", runEvent{}, false
}

// eventsAfterBy are the runs' events, read through member i, that
// occurred after at and name holder as their writer, as host:seq.
func (c *cluster) eventsAfterBy(i int, ids map[string]string, at time.Time, holder string) []string {
	var out []string
	for h, id := range ids {
		for _, e := range c.events(i, id) {
			if e.OccurredAt.After(at) && e.Holder == holder {
				out = append(out, fmt.Sprintf("%s:%d@%d", h, e.Seq, e.Epoch))
			}
		}
	}
	return out
}

// linesWith are out's lines containing any of subs.
func linesWith(out string, subs ...string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		for _, s := range subs {
			if strings.Contains(l, s) {
				b.WriteString(l + "\n")
				break
			}
		}
	}
	return b.String()
}

// startBatch waits for the site's lease, onboards machines 1..n as one
// batch and points the command line at a member other than the holder.
// It returns the lease, the holder's and that survivor's indexes, the
// batch and the runs by hostname.
func (c *cluster) startBatch(n int) (before leaseView, holder, survivor int, batch string, ids map[string]string) {
	c.t.Helper()
	before = c.waitLease(0, 30*time.Second, func(leaseView) bool { return true })
	holder = c.member(before.Holder)
	hosts := make([]int, n)
	for i := range hosts {
		hosts[i] = i + 1
	}
	batch, ids = c.onboard(hostnames(hosts...)...)
	survivor = c.other(holder)
	c.daemon = c.members[survivor]
	return before, holder, survivor, batch, ids
}
