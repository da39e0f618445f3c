//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// CountNodes implements lifecycle.NodeStore: one GROUP BY over the
// (site_id, status) index of migration 5, which covers it.
func (s *Store) CountNodes(ctx context.Context) (out []lifecycle.NodeCount, err error) {
	err = s.view(ctx, "store.CountNodes", func(tx *sql.Tx) error {
		rows, err := tx.Query(`SELECT site_id, status, count(*) FROM nodes GROUP BY site_id, status ORDER BY site_id, status`)
		if err != nil {
			return err
		}
		defer rows.Close()
		out = []lifecycle.NodeCount{}
		for rows.Next() {
			var c lifecycle.NodeCount
			if err := rows.Scan(&c.SiteID, &c.Status, &c.Count); err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

// ListBatches implements lifecycle.SiteConfigStore: a page of batches by
// primary key, then their runs counted by status in one GROUP BY over
// the batch_id column of migration 6.
func (s *Store) ListBatches(ctx context.Context, f lifecycle.BatchFilter) (out []lifecycle.BatchCounts, err error) {
	err = s.view(ctx, "store.ListBatches", func(tx *sql.Tx) error {
		bs, err := list[lifecycle.Batch](tx, `SELECT data FROM batches WHERE (?1 = '' OR site_id = ?1) AND id > ?2 ORDER BY id LIMIT ?3`,
			f.SiteID, f.After, sqlLimit(f.Limit))
		if err != nil || len(bs) == 0 {
			return err
		}
		counts, err := batchCounts(tx, bs)
		if err != nil {
			return err
		}
		for _, b := range bs {
			out = append(out, lifecycle.BatchCounts{Batch: b, Counts: counts[b.ID]})
		}
		return nil
	})
	if out == nil && err == nil {
		out = []lifecycle.BatchCounts{}
	}
	return out, err
}

// batchCounts counts the runs of bs by batch and status.
func batchCounts(tx *sql.Tx, bs []lifecycle.Batch) (map[string]map[lifecycle.JobState]int, error) {
	args := make([]any, len(bs))
	out := map[string]map[lifecycle.JobState]int{}
	for i, b := range bs {
		args[i] = b.ID
		out[b.ID] = map[lifecycle.JobState]int{}
	}
	rows, err := tx.Query(`SELECT batch_id, status, count(*) FROM runs WHERE batch_id IN (?`+
		strings.Repeat(", ?", len(bs)-1)+`) GROUP BY batch_id, status`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var st lifecycle.JobState
		var n int
		if err := rows.Scan(&id, &st, &n); err != nil {
			return nil, err
		}
		out[id][st] = n
	}
	return out, rows.Err()
}

// CountBatch implements lifecycle.RunStore: the batch record and one
// GROUP BY over its runs' batch_id column.
func (s *Store) CountBatch(ctx context.Context, id string) (out lifecycle.BatchCounts, err error) {
	const op = "store.CountBatch"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &out.Batch, `SELECT data FROM batches WHERE id = ?`, id)
		if err == nil && !ok {
			err = notFound(op, "batch", id)
		}
		if err != nil {
			return err
		}
		counts, err := batchCounts(tx, []lifecycle.Batch{out.Batch})
		out.Counts = counts[id]
		return err
	})
	return out, err
}
