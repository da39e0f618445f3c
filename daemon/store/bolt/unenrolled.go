package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// NodeHasTasks implements op.Removals.
func (t txn) NodeHasTasks(nodeID string) (bool, error) { return hasTasks(t.Tx, nodeID) }

// DropNode implements op.Removals.
func (t txn) DropNode(n lifecycle.Node) error {
	if err := dropEnrollment(t.Tx, n.ID); err != nil {
		return err
	}
	if err := unindexNode(t.Tx, n.ID); err != nil {
		return err
	}
	for _, d := range []struct{ b, k []byte }{{bNodeHosts, hostKey(n.SiteID, n.Hostname)},
		{bMaasState, []byte(n.ID)}, {bTaskSeq, []byte(n.ID)}, {bNodes, []byte(n.ID)}} {
		if err := t.Bucket(d.b).Delete(d.k); err != nil {
			return err
		}
	}
	return nil
}

// hasTasks reports whether any agent task, open or finished, names the node.
func hasTasks(tx *bbolt.Tx, nodeID string) (bool, error) {
	found := false
	err := tx.Bucket(bTasks).ForEach(func(k, _ []byte) error {
		var t lifecycle.AgentTask
		if _, err := get(tx.Bucket(bTasks), string(k), &t); err != nil {
			return err
		}
		found = found || t.NodeID == nodeID
		return nil
	})
	return found, err
}

// dropEnrollment deletes every enrollment token of the node.
func dropEnrollment(tx *bbolt.Tx, nodeID string) error {
	b := tx.Bucket(bEnroll)
	var hashes [][]byte
	err := b.ForEach(func(k, _ []byte) error {
		var t lifecycle.EnrollmentToken
		if _, err := get(b, string(k), &t); err != nil {
			return err
		}
		if t.NodeID == nodeID {
			hashes = append(hashes, append([]byte{}, k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, h := range hashes {
		if err := b.Delete(h); err != nil {
			return err
		}
	}
	return tx.Bucket(bEnrollNode).Delete([]byte(nodeID))
}
