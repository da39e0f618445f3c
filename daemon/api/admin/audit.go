package admin

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ReasonHeader carries the operator's reason for a mutation into its
// audit entry; recovery actions take it in their body instead.
const ReasonHeader = "X-Audit-Reason"

// change is one audited mutation.
type change struct {
	action     string
	kind, id   string
	prior      string
	expected   string
	correlated map[string]string
}

// audit records a mutation that already happened. A failed audit write
// is logged, not answered: the change stands and the caller must not retry it.
func (a *API) audit(ctx context.Context, r *http.Request, c *call, ch change) {
	if _, err := a.store.AppendAudit(context.WithoutCancel(ctx), auditEntry(r, c, ch)); err != nil {
		a.log.Error("audit write failed", "action", ch.action, "target", ch.id, "request_id", c.requestID, "err", err)
	}
}

// auditAll records changes in one store write, as audit does one.
func (a *API) auditAll(ctx context.Context, r *http.Request, c *call, changes []change) {
	es := make([]lifecycle.AuditEntry, len(changes))
	for i, ch := range changes {
		es[i] = auditEntry(r, c, ch)
	}
	if _, err := a.store.AppendAudits(context.WithoutCancel(ctx), es); err != nil {
		a.log.Error("audit write failed", "entries", len(es), "request_id", c.requestID, "err", err)
	}
}

func auditEntry(r *http.Request, c *call, ch change) lifecycle.AuditEntry {
	ids := map[string]string{"request_id": c.requestID}
	for k, v := range ch.correlated {
		if v != "" {
			ids[k] = v
		}
	}
	return lifecycle.AuditEntry{Actor: c.who.Actor(), Role: string(c.who.Role), Action: ch.action,
		Reason: clip(r.Header.Get(ReasonHeader), 512), TargetKind: ch.kind, TargetID: ch.id,
		PriorState: ch.prior, ExpectedTarget: ch.expected, CorrelationIDs: ids}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// listAudit answers GET /audit with filters target_kind, target_id, actor,
// action and after_seq, one page (limit default 100, at most 1000) in
// sequence order, or newest first with order=desc; cursor continues where
// next_cursor said.
func (a *API) listAudit(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listAudit"
	q := r.URL.Query()
	f := lifecycle.AuditFilter{TargetKind: q.Get("target_kind"), TargetID: q.Get("target_id"),
		Actor: q.Get("actor"), Action: q.Get("action")}
	var err error
	if f.AfterSeq, err = queryUint(q.Get("after_seq"), op, "after_seq", 0); err != nil {
		return 0, nil, err
	}
	if q.Get("limit") == "" {
		q.Set("limit", "100")
	}
	switch order := q.Get("order"); order {
	case "", "asc":
	case "desc":
		f.Newest = true
	default:
		return 0, nil, lifecycle.Invalid(op, "order", "order %.32q is not asc or desc", order)
	}
	p, err := readPage(op, q, "audit", f.TargetKind, f.TargetID, f.Actor, f.Action, strconv.FormatBool(f.Newest))
	if err != nil {
		return 0, nil, err
	}
	if p.after != "" {
		seq, err := strconv.ParseUint(p.after, 10, 64)
		if err != nil {
			return 0, nil, lifecycle.Invalid(op, "cursor", "cursor is not one this API gave out")
		}
		if f.Newest {
			f.BeforeSeq = seq
		} else {
			f.AfterSeq = seq
		}
	}
	f.Limit = p.limit + 1
	entries, err := a.store.ListAudit(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	entries, next := cutPage(p, entries, func(e lifecycle.AuditEntry) string { return strconv.FormatUint(e.Seq, 10) })
	return http.StatusOK, listBody("entries", entries, next), nil
}

func queryUint(s, op, field string, def uint64) (uint64, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, lifecycle.Invalid(op, field, "%s must be a non-negative integer", field)
	}
	return n, nil
}
