//go:build integration

package maassim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestMirrorNotifiesEveryNodeType: the mirror registers MAAS 3.6's
// triggers for devices and the three controller types as well as machines.
// Controllers announce themselves on controller_*, a device without parent
// on device_*, and a device with a parent machine on the parent's
// machine_update, each with the system id as payload.
func TestMirrorNotifiesEveryNodeType(t *testing.T) {
	s, pg := newSite(t, 1), newPG(t)
	parent := s.ids(t)[0]
	l := listen(t, pg)
	mirror(t, s, pg, maassim.MirrorOptions{})
	inStep(t, s, pg)
	l.quiet(t, 200*time.Millisecond, parent)

	for i, nodeType := range []int{2, 3, 4} {
		sid := fmt.Sprintf("ctrl%d", i)
		insertNode(t, pg, sid, nodeType, "NULL")
		l.await(t, "controller_create", sid)
		pg.Exec(t, mirrorDB, "UPDATE maasserver_node SET hostname = 'r"+sid+"' WHERE system_id = '"+sid+"'")
		l.await(t, "controller_update", sid)
		pg.Exec(t, mirrorDB, "DELETE FROM maasserver_node WHERE system_id = '"+sid+"'")
		l.await(t, "controller_delete", sid)
	}

	insertNode(t, pg, "dev0", 1, "NULL")
	l.await(t, "device_create", "dev0")
	pg.Exec(t, mirrorDB, "UPDATE maasserver_node SET description = 'bmc' WHERE system_id = 'dev0'")
	l.await(t, "device_update", "dev0")
	pg.Exec(t, mirrorDB, "DELETE FROM maasserver_node WHERE system_id = 'dev0'")
	l.await(t, "device_delete", "dev0")

	child := "(SELECT id FROM maasserver_node WHERE system_id = '" + parent + "')"
	insertNode(t, pg, "dev1", 1, child)
	if seen := l.await(t, "machine_update", parent); len(seen) != 0 {
		t.Fatalf("a child device announced itself: %v", seen)
	}
	pg.Exec(t, mirrorDB, "UPDATE maasserver_node SET hostname = 'nic' WHERE system_id = 'dev1'")
	l.await(t, "machine_update", parent)
	pg.Exec(t, mirrorDB, "DELETE FROM maasserver_node WHERE system_id = 'dev1'")
	l.await(t, "machine_update", parent)
	l.quiet(t, 200*time.Millisecond, "dev1")
}

func insertNode(t *testing.T, pg interface {
	Exec(testing.TB, string, ...string)
}, sid string, nodeType int, parent string) {
	t.Helper()
	pg.Exec(t, mirrorDB, fmt.Sprintf("INSERT INTO maasserver_node (system_id, hostname, node_type, parent_id) "+
		"VALUES ('%s', '%s', %d, %s)", sid, sid, nodeType, parent))
}
