package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// DeleteUnenrolledNode implements lifecycle.NodeStore.
func (s *Store) DeleteUnenrolledNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.DeleteUnenrolledNode"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		if n, err = loadNode(tx, op, id); err != nil {
			return err
		}
		if err := rules.CheckDeleteUnenrolled(op, n); err != nil {
			return err
		}
		if has, err := hasTasks(tx, id); err != nil || has {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s has agent tasks; it is not deleted", id)
			}
			return err
		}
		if err := dropEnrollment(tx, id); err != nil {
			return err
		}
		if err := unindexNode(tx, id); err != nil {
			return err
		}
		for _, d := range []struct{ b, k []byte }{{bNodeHosts, hostKey(n.SiteID, n.Hostname)},
			{bMaasState, []byte(id)}, {bTaskSeq, []byte(id)}, {bNodes, []byte(id)}} {
			if err := tx.Bucket(d.b).Delete(d.k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
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
