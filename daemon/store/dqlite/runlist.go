//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ListRuns implements lifecycle.RunStore: one SELECT over the run
// columns of migration 6, ordered by request time then id through their
// indexes, a page starting after its cursor run.
func (s *Store) ListRuns(ctx context.Context, f lifecycle.RunFilter) (out []lifecycle.Run, err error) {
	const op = "store.ListRuns"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		q, args := runQuery(f)
		if f.After != "" {
			a, err := loadRun(tx, op, f.After)
			if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
				return lifecycle.Invalid(op, "after", "run %.64q is not a run: the cursor is not valid", f.After)
			} else if err != nil {
				return err
			}
			q += ` AND (requested_at, id) > (?, ?)`
			args = append(args, requestedNanos(a), a.ID)
		}
		out, err = list[lifecycle.Run](tx, q+` ORDER BY requested_at, id LIMIT ?`, append(args, sqlLimit(f.Limit))...)
		return err
	})
	return out, err
}

// runQuery is the SELECT of f's matches (without cursor, order or limit)
// naming only the columns f selects by, so the planner can take their index.
func runQuery(f lifecycle.RunFilter) (string, []any) {
	var b strings.Builder
	b.WriteString(`SELECT data FROM runs WHERE 1 = 1`)
	var args []any
	for _, c := range []struct{ col, v string }{{"site_id", f.SiteID}, {"batch_id", f.BatchID},
		{"node_id", f.NodeID}, {"kind", string(f.Kind)}, {"json_extract(data, '$.mode')", string(f.Mode)}} {
		if c.v != "" {
			b.WriteString(" AND " + c.col + " = ?")
			args = append(args, c.v)
		}
	}
	if len(f.Statuses) > 0 {
		b.WriteString(" AND status IN (?" + strings.Repeat(", ?", len(f.Statuses)-1) + ")")
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	return b.String(), args
}

// runColumns are r's kind, status, node_id, batch_id and requested_at
// columns, in that order.
func runColumns(r lifecycle.Run) []any {
	return []any{string(r.Kind), string(r.Status), r.NodeID, r.BatchID, requestedNanos(r)}
}

// requestedNanos is a run's request time in Unix nanoseconds (0 before
// 1970, as the bbolt index has it).
func requestedNanos(r lifecycle.Run) int64 {
	if !r.RequestedAt.After(time.Unix(0, 0)) {
		return 0
	}
	return r.RequestedAt.UnixNano()
}

// fillRunColumns (migration 6) sets the run columns of the runs already
// stored from their records in one statement, so a large store migrates
// in one call to the leader. The request time is derived from the
// record's RFC 3339 text as requestedNanos has it: whole seconds by
// strftime (the fraction cut off first, so SQLite does not round it),
// the fraction's digits padded to nanoseconds, 0 up to 1970.
var fillRunColumns = `UPDATE runs SET kind = coalesce(json_extract(data, '$.kind'), ''),
	status = coalesce(json_extract(data, '$.status'), ''),
	node_id = coalesce(json_extract(data, '$.node_id'), ''),
	batch_id = coalesce(json_extract(data, '$.batch_id'), ''),
	requested_at = ` + requestedNanosSQL(`json_extract(data, '$.requested_at')`)

// requestedNanosSQL is the SQL of requestedNanos over ts, a time as JSON
// writes it: "2006-01-02T15:04:05[.fraction](Z|±07:00)".
func requestedNanosSQL(ts string) string {
	zone := `(CASE WHEN ` + ts + ` LIKE '%Z' THEN 1 ELSE 6 END)`
	secs := `CAST(strftime('%s', substr(` + ts + `, 1, 19) || substr(` + ts + `, length(` + ts + `) - ` + zone + ` + 1)) AS INTEGER)`
	frac := `(CASE WHEN substr(` + ts + `, 20, 1) = '.' THEN substr(` + ts + `, 21, length(` + ts + `) - 20 - ` + zone + `) ELSE '' END)`
	nanos := `CAST(substr(` + frac + ` || '000000000', 1, 9) AS INTEGER)`
	return `max(coalesce(` + secs + ` * 1000000000 + ` + nanos + `, 0), 0)`
}
