//go:build integration

package feed_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The region database notifies every node type (MAAS 3.6's triggers, as
// the simulator's mirror registers them). Controllers and a device with
// no parent notify on channels the listener does not follow, so nothing
// is read; a device under a followed machine notifies that machine's
// machine_update, which is re-read and, unchanged, acted on by nobody.
func TestListenIgnoresWhatIsNotAFollowedMachine(t *testing.T) {
	pg := regionDB(t)
	s := newSite(t, pgListenOpts(pg, "maas_listen", "maasdb"))
	id, sid := s.activeNode("gpu-n1")
	s.awaitSource("listen")
	s.caughtUpAfterConnect(1)
	reads := func() float64 { return s.metric("maas_sidecar_feed_machines_read_total", "source", "listen") }
	before := reads()
	for i, nodeType := range []int{1, 2, 3, 4} {
		pg.Exec(t, "maasdb", fmt.Sprintf("INSERT INTO maasserver_node (system_id, hostname, node_type) "+
			"VALUES ('other%d', 'other%d', %d)", i, i, nodeType),
			fmt.Sprintf("UPDATE maasserver_node SET status = 6 WHERE system_id = 'other%d'", i),
			fmt.Sprintf("DELETE FROM maasserver_node WHERE system_id = 'other%d'", i))
	}
	time.Sleep(500 * time.Millisecond)
	if got := reads(); got != before {
		t.Fatalf("%v machines read after device and controller notifications", got-before)
	}

	pg.Exec(t, "maasdb", "INSERT INTO maasserver_node (system_id, hostname, node_type, parent_id) "+
		"SELECT 'bmc001', 'gpu-n1-bmc', 1, id FROM maasserver_node WHERE system_id = '"+sid+"'")
	s.eventually(5*time.Second, "the parent machine re-read", func() bool {
		return s.metric("maas_sidecar_feed_notifications_total", "site", siteID, "channel", "machine_update") >= 1 &&
			reads() > before
	})
	if n := s.node(id); n.Status != lifecycle.NodeActive {
		t.Fatalf("node %s is %s after its device's notification, want active", id, n.Status)
	}
	if a := s.audits(id); len(a) != 0 {
		t.Fatalf("audits %v after an unchanged machine's notification", a)
	}
}
