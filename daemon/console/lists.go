package console

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// batchRow is one batch of onboardings and its aggregate.
type batchRow struct {
	ID      string
	Summary lifecycle.BatchSummary
}

// batches lists the batches of the onboardings, newest request last,
// each with its aggregate status.
func (c *Console) batches(w http.ResponseWriter, r *http.Request, s *session) {
	var runs []lifecycle.Run
	q := url.Values{"limit": {"1000"}}
	for range countPages {
		var page struct {
			Onboardings []lifecycle.Run
			Next        string `json:"next_cursor"`
		}
		if err := c.get(r.Context(), s, "/onboardings", q, &page); err != nil {
			c.apiFail(w, r, s, err)
			return
		}
		runs = append(runs, page.Onboardings...)
		if page.Next == "" {
			break
		}
		q.Set("cursor", page.Next)
	}
	by := map[string][]lifecycle.Run{}
	var order []string
	for _, run := range runs {
		if _, ok := by[run.BatchID]; !ok {
			order = append(order, run.BatchID)
		}
		by[run.BatchID] = append(by[run.BatchID], run)
	}
	rows := make([]batchRow, 0, len(order))
	for _, id := range order {
		rows = append(rows, batchRow{ID: id, Summary: lifecycle.SummarizeRuns(by[id])})
	}
	c.render(w, r, http.StatusOK, "batches", view{Title: "Batches", Session: s, Data: rows})
}

// batchData is one batch: its aggregate and a page of its runs.
type batchData struct {
	ID      string
	Summary lifecycle.BatchSummary
	Runs    []lifecycle.Run
	Next    string
}

func (c *Console) batch(w http.ResponseWriter, r *http.Request, s *session) {
	var page struct {
		Batch       lifecycle.BatchSummary
		Onboardings []lifecycle.Run
		Next        string `json:"next_cursor"`
	}
	q := url.Values{"batch_id": {r.PathValue("id")}, "limit": {pageSize}}
	if cur := r.URL.Query().Get("cursor"); cur != "" {
		q.Set("cursor", cur)
	}
	if err := c.get(r.Context(), s, "/onboardings", q, &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := batchData{ID: r.PathValue("id"), Summary: page.Batch, Runs: page.Onboardings}
	if page.Next != "" {
		d.Next = url.Values{"cursor": {page.Next}}.Encode()
	}
	live := page.Batch.Status == "running"
	c.render(w, r, http.StatusOK, "batch", view{Title: "Batch " + d.ID, Session: s, Data: d, Live: live})
}

// driftGroup is the open findings of one rule and severity.
type driftGroup struct {
	Rule     lifecycle.DriftRule
	Severity lifecycle.DriftSeverity
	Findings []lifecycle.NodeMaasState
}

// drift shows the open drift findings grouped by rule and severity.
func (c *Console) drift(w http.ResponseWriter, r *http.Request, s *session) {
	var out struct{ Drift []lifecycle.NodeMaasState }
	if err := c.get(r.Context(), s, "/reconciliation/drift", nil, &out); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	var groups []driftGroup
	for _, f := range out.Drift {
		i := slices.IndexFunc(groups, func(g driftGroup) bool { return g.Rule == f.DriftRule && g.Severity == f.DriftSeverity })
		if i < 0 {
			i = len(groups)
			groups = append(groups, driftGroup{Rule: f.DriftRule, Severity: f.DriftSeverity})
		}
		groups[i].Findings = append(groups[i].Findings, f)
	}
	c.render(w, r, http.StatusOK, "drift", view{Title: "Drift", Session: s, Data: groups})
}

// decommissions lists the decommission runs, newest first.
func (c *Console) decommissions(w http.ResponseWriter, r *http.Request, s *session) {
	var out struct{ Decommissions []lifecycle.Run }
	if err := c.get(r.Context(), s, "/decommissions", nil, &out); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	slices.Reverse(out.Decommissions)
	c.render(w, r, http.StatusOK, "decommissions", view{Title: "Decommissions", Session: s, Data: out.Decommissions})
}

// auditData is a page of the audit log.
type auditData struct {
	Entries []lifecycle.AuditEntry
	Next    string
}

func (c *Console) audit(w http.ResponseWriter, r *http.Request, s *session) {
	var page struct {
		Entries []lifecycle.AuditEntry
		Next    string `json:"next_cursor"`
	}
	q := url.Values{"limit": {pageSize}}
	if cur := r.URL.Query().Get("cursor"); cur != "" {
		q.Set("cursor", cur)
	}
	if err := c.get(r.Context(), s, "/audit", q, &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := auditData{Entries: page.Entries}
	if page.Next != "" {
		d.Next = url.Values{"cursor": {page.Next}}.Encode()
	}
	c.render(w, r, http.StatusOK, "audit", view{Title: "Audit log", Session: s, Data: d})
}
