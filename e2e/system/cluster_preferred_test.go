//go:build e2e && dqlite

package system

import (
	"testing"
	"time"
)

// TestClusterPreferredDaemon: a site whose preferred daemon is region-c
// moves to it while it runs; when region-c stops, a survivor takes the
// site; when region-c is back, the lease returns to it without waiting for
// the survivor's lease to expire, under a higher epoch, and onboarding
// goes on through it.
func TestClusterPreferredDaemon(t *testing.T) {
	c := newCluster(t, simOptions{machines: 2, speed: 600})
	const home = 2
	c.daemon.ok("", "site", "update", c.site, "--preferred-daemon", c.names[home], "--reason", "e2e: home region")
	first := c.waitLease(0, 30*time.Second, func(l leaseView) bool { return l.Holder == c.names[home] })

	c.proxy.setDown(home, true)
	c.members[home].proc.stop(20 * time.Second)
	away := c.waitLease(0, 30*time.Second, func(l leaseView) bool { return l.Holder != c.names[home] })
	if away.Epoch <= first.Epoch {
		t.Errorf("lease away from home at epoch %d, want above %d", away.Epoch, first.Epoch)
	}

	c.proxy.setDown(home, false)
	back := time.Now()
	c.members[home].start()
	again := c.waitLease(0, 60*time.Second, func(l leaseView) bool { return l.Holder == c.names[home] })
	t.Logf("lease back on %s %v after its restart (epoch %d -> %d, lease TTL %v)",
		c.names[home], time.Since(back).Round(time.Millisecond), away.Epoch, again.Epoch, leaseTTL)
	if again.Epoch <= away.Epoch {
		t.Errorf("lease back home at epoch %d, want above %d", again.Epoch, away.Epoch)
	}
	c.daemon = c.members[home]
	batch, _ := c.onboard(hostnames(1, 2)...)
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 {
		t.Fatalf("onboarding through the preferred daemon: %s", w)
	}
	c.checkNoDuplicates(map[string]int{"deploy": 1})
}
