package bolt

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// indexLists (version 2) creates bNodeIndex and bRunIndex and fills them
// from the nodes and runs already stored.
func indexLists(tx *bbolt.Tx) (string, error) {
	nodes, err := reindexAll(tx, bNodes, bNodeIndex, nodeKeys)
	if err != nil {
		return "", err
	}
	runs, err := reindexAll(tx, bRuns, bRunIndex, runKeys)
	return fmt.Sprintf("%d nodes and %d runs indexed", nodes, runs), err
}

// indexRunKinds (version 3) adds the kind entries of runKeys for the runs
// already stored; their other entries are already there and stay.
func indexRunKinds(tx *bbolt.Tx) (string, error) {
	runs, err := reindexAll(tx, bRuns, bRunIndex, runKeys)
	return fmt.Sprintf("%d runs indexed by kind", runs), err
}

func reindexAll[T lifecycle.Node | lifecycle.Run](tx *bbolt.Tx, records, index []byte, keys func(T) [][]byte) (int, error) {
	idx, err := tx.CreateBucketIfNotExists(index)
	if err != nil {
		return 0, err
	}
	b := tx.Bucket(records)
	if b == nil {
		return 0, nil
	}
	n := 0
	err = b.ForEach(func(k, _ []byte) error {
		var v T
		if _, err := get(b, string(k), &v); err != nil {
			return err
		}
		n++
		return reindex(idx, nil, keys(v))
	})
	return n, err
}
