package console

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// batchRow is one batch of GET /batches: what was asked, by whom, and
// its runs' aggregate.
type batchRow struct {
	ID          string
	SiteID      string `json:"site_id"`
	SKU         string
	RequestedBy string    `json:"requested_by"`
	RequestedAt time.Time `json:"requested_at"`
	Summary     lifecycle.BatchSummary
}

// batchesData is a page of batches.
type batchesData struct {
	Batches []batchRow
	Next    string
}

// batches lists the batches of onboardings a page at a time (GET
// /batches), each with its aggregate status.
func (c *Console) batches(w http.ResponseWriter, r *http.Request, s *session) {
	var page struct {
		Batches []batchRow
		Next    string `json:"next_cursor"`
	}
	q := url.Values{"limit": {pageSize}}
	if cur := r.URL.Query().Get("cursor"); cur != "" {
		q.Set("cursor", cur)
	}
	if err := c.get(r.Context(), s, "/batches", q, &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := batchesData{Batches: page.Batches}
	if page.Next != "" {
		d.Next = url.Values{"cursor": {page.Next}}.Encode()
	}
	c.render(w, r, http.StatusOK, "batches", view{Title: "Batches", Session: s, Data: d})
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
