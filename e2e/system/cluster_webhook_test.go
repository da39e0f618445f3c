//go:build e2e && dqlite

package system

import (
	"net/http"
	"testing"
	"time"
)

// TestClusterWebhooksAtAnyMember: MAAS's change hints go to a member that
// does not hold the site's lease (a load balancer in front of the region
// controllers picks any). That member verifies and stores them; the
// holder handles them from the shared inbox: an out-of-band release of an
// active machine quarantines its node. Only the holder reads the machine
// for a hint, and the other members change nothing in MAAS.
func TestClusterWebhooksAtAnyMember(t *testing.T) {
	c := newCluster(t, simOptions{machines: 1, speed: 600})
	holder := c.member(c.waitLease(0, 30*time.Second, func(leaseView) bool { return true }).Holder)
	other := c.other(holder)
	c.daemon.ok(apiKey, "site", "credentials", c.site, "--maas-key-file", "-", "--webhook-secret-file", file(t, "hook", "hook-secret-0123456789"),
		"--reason", "e2e: webhooks")
	batch, _ := c.onboard("gpu-001")
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 {
		t.Fatalf("onboarding watch --batch: %s", w)
	}
	c.sim.control("webhooks", map[string]any{"drop": 0.0, "targets": []map[string]string{{
		"url": c.members[other].url("/api/v1/webhooks/maas?site_id=" + c.site), "secret": "hook-secret-0123456789"}}})
	since := time.Now()
	c.sim.control("machines/"+c.sim.machines["gpu-001"].systemID+"/release", nil)
	deadline := time.Now().Add(30 * time.Second)
	for c.nodes()["gpu-001"] != "quarantined" {
		if time.Now().After(deadline) {
			t.Fatalf("gpu-001 is %q 30s after an out-of-band release, want quarantined", c.nodes()["gpu-001"])
		}
		time.Sleep(200 * time.Millisecond)
	}
	received := scrape(t, c.members[other])
	if v := sample(received, "maas_sidecar_webhook_received_total", nil); v < 1 {
		t.Errorf("%s received %v webhooks, want at least 1", c.names[other], v)
	}
	if v := sample(received, "maas_sidecar_feed_machines_read_total", map[string]string{"source": "webhook"}); v > 0 {
		t.Errorf("%s, which does not hold the site, read %v machines for webhooks", c.names[other], v)
	}
	deadline = time.Now().Add(15 * time.Second)
	for sample(scrape(t, c.members[holder]), "maas_sidecar_feed_machines_read_total", map[string]string{"source": "webhook"}) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the holder %s never handled the webhooks %s stored", c.names[holder], c.names[other])
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i, name := range c.names {
		if i == holder {
			continue
		}
		for _, r := range c.sim.requestsBy(name) {
			if r.Time.After(since) && r.Method != http.MethodGet {
				t.Errorf("%s, which does not hold the site, changed MAAS: %+v", name, r)
			}
		}
	}
}
