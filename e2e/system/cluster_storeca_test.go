//go:build e2e && dqlite

package system

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestClusterRollsMemberTrustWithQuorum rolls a running 3-member cluster
// of the real daemons through the store CA upgrade's two rounds
// (docs/operations.md, "Upgrading a cluster to the store CA") while a
// batch onboards: each member in turn is stopped, its
// store.dqlite.member_trust set (transition, then store_ca) and started
// again. While each member is down a write through another member
// succeeds (quorum kept), the restarted member serves writes again, and
// every run completes with one deploy. The earlier release's member TLS
// is exercised in TestRollingUpgradeToTheStoreCA, which needs no old
// binary.
func TestClusterRollsMemberTrustWithQuorum(t *testing.T) {
	c := newCluster(t, simOptions{machines: 3, speed: 600})
	batch, _ := c.onboard(hostnames(1, 2, 3)...)
	writes := 0
	write := func(i int, when string) {
		t.Helper()
		writes++
		code, _, body := c.members[i].call(t, http.MethodPost, "/api/v1/admin/maas-sites", siteBody(fmt.Sprintf("roll%d", writes)))
		if code != http.StatusCreated {
			t.Fatalf("%s: a write through %s: %d %s", when, c.names[i], code, body)
		}
	}
	trust := "join: "
	for _, mode := range []string{"transition", "store_ca"} {
		for i, d := range c.members {
			step := fmt.Sprintf("%s to %s", c.names[i], mode)
			c.proxy.setDown(i, true)
			d.proc.stop(20 * time.Second)
			write((i+1)%3, step+", member down")
			b := d.configText()
			if at := strings.Index(b, "    member_trust: "); at >= 0 {
				d.setConfig(b[at:at+strings.Index(b[at:], "\n")+1], "")
			}
			line := b[strings.Index(b, "    "+trust):]
			line = line[:strings.Index(line, "\n")+1]
			d.setConfig(line, line+"    member_trust: "+mode+"\n")
			d.start()
			c.proxy.setDown(i, false)
			write(i, step+", member back")
		}
	}
	c.daemon = c.members[0]
	if w := c.daemon.cli("", "onboarding", "watch", "--batch", batch); w.code != 0 || !strings.Contains(w.stdout, "completed 3") {
		t.Fatalf("the batch across the rolling restarts: %s", w)
	}
	c.checkNoDuplicates(map[string]int{"deploy": 1})
}
