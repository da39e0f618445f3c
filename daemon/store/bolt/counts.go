package bolt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// CountNodes implements lifecycle.NodeStore: one walk of the node index's
// site-and-status keys (schema 2), counting keys without reading a node.
func (s *Store) CountNodes(ctx context.Context) ([]lifecycle.NodeCount, error) {
	out := []lifecycle.NodeCount{}
	err := s.view(ctx, "store.CountNodes", func(tx *bbolt.Tx) error {
		pre := prefix("st")
		var cur []byte // the site and status prefix of the line being counted
		c := tx.Bucket(bNodeIndex).Cursor()
		for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
			if cur != nil && bytes.HasPrefix(k, cur) {
				out[len(out)-1].Count++
				continue
			}
			site, status, ok := siteStatus(k[len(pre):])
			if !ok {
				return fmt.Errorf("node index key %q is not site, status and id", k)
			}
			cur = prefix("st", site, status)
			out = append(out, lifecycle.NodeCount{SiteID: site, Status: lifecycle.NodeState(status), Count: 1})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// siteStatus splits the rest of an "st" index key: site, status, node id.
func siteStatus(k []byte) (site, status string, ok bool) {
	parts := bytes.SplitN(k, []byte{0}, 3)
	if len(parts) != 3 {
		return "", "", false
	}
	return string(parts[0]), string(parts[1]), true
}

// ListBatches implements lifecycle.SiteConfigStore: the batch bucket in
// id order from the cursor; each batch's runs are found through the run
// index and counted by reading only their status.
func (s *Store) ListBatches(ctx context.Context, f lifecycle.BatchFilter) ([]lifecycle.BatchCounts, error) {
	out := []lifecycle.BatchCounts{}
	err := s.view(ctx, "store.ListBatches", func(tx *bbolt.Tx) error {
		c := tx.Bucket(bBatches).Cursor()
		for k, _ := seekAfter(c, nil, []byte(f.After)); k != nil; k, _ = c.Next() {
			var b lifecycle.Batch
			if _, err := get(tx.Bucket(bBatches), string(k), &b); err != nil {
				return err
			}
			if f.SiteID != "" && b.SiteID != f.SiteID {
				continue
			}
			counts, err := batchStatuses(tx, b.ID)
			if err != nil {
				return err
			}
			out = append(out, lifecycle.BatchCounts{Batch: b, Counts: counts})
			if f.Limit > 0 && len(out) == f.Limit {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// batchStatuses counts the runs of batch id (the run index's batch
// keys) by status, decoding only that field of each.
func batchStatuses(tx *bbolt.Tx, id string) (map[lifecycle.JobState]int, error) {
	out := map[lifecycle.JobState]int{}
	pre, runs := prefix("b", id), tx.Bucket(bRuns)
	c := tx.Bucket(bRunIndex).Cursor()
	for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
		rid := k[len(pre)+8:]
		raw := runs.Get(rid)
		if raw == nil {
			return nil, fmt.Errorf("run index names run %q, which is not stored", rid)
		}
		var r struct {
			Status lifecycle.JobState `json:"status"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("decode record %q: %w", rid, err)
		}
		out[r.Status]++
	}
	return out, nil
}

// CountBatch implements lifecycle.RunStore: the batch record and its runs
// counted by status through the run index's batch keys.
func (s *Store) CountBatch(ctx context.Context, id string) (out lifecycle.BatchCounts, err error) {
	const op = "store.CountBatch"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := get(tx.Bucket(bBatches), id, &out.Batch)
		if err == nil && !ok {
			err = notFound(op, "batch", id)
		}
		if err == nil {
			out.Counts, err = batchStatuses(tx, id)
		}
		return err
	})
	return out, err
}
