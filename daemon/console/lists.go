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
	if err := c.get(r.Context(), s, "/batches", pageQuery(r), &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := batchesData{Batches: page.Batches, Next: nextHref("/console/batches", nil, page.Next)}
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
	d := batchData{ID: r.PathValue("id"), Summary: page.Batch, Runs: page.Onboardings,
		Next: nextHref("/console/batches/"+url.PathEscape(r.PathValue("id")), nil, page.Next)}
	live := page.Batch.Status == "running"
	c.render(w, r, http.StatusOK, "batch", view{Title: "Batch " + d.ID, Session: s, Data: d, Live: live})
}

// driftGroup is the open findings of one rule and severity.
type driftGroup struct {
	Rule     lifecycle.DriftRule
	Severity lifecycle.DriftSeverity
	Findings []lifecycle.NodeMaasState
}

// driftData is a page of open drift findings, grouped.
type driftData struct {
	Groups []driftGroup
	Next   string
}

// drift shows the open drift findings grouped by rule and severity, a
// page at a time (GET /reconciliation/drift, in node id order).
func (c *Console) drift(w http.ResponseWriter, r *http.Request, s *session) {
	var page struct {
		Drift []lifecycle.NodeMaasState
		Next  string `json:"next_cursor"`
	}
	if err := c.get(r.Context(), s, "/reconciliation/drift", pageQuery(r), &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := driftData{Next: nextHref("/console/drift", nil, page.Next)}
	for _, f := range page.Drift {
		i := slices.IndexFunc(d.Groups, func(g driftGroup) bool { return g.Rule == f.DriftRule && g.Severity == f.DriftSeverity })
		if i < 0 {
			i = len(d.Groups)
			d.Groups = append(d.Groups, driftGroup{Rule: f.DriftRule, Severity: f.DriftSeverity})
		}
		d.Groups[i].Findings = append(d.Groups[i].Findings, f)
	}
	c.render(w, r, http.StatusOK, "drift", view{Title: "Drift", Session: s, Data: d})
}

// decommissionsData is a page of decommission runs.
type decommissionsData struct {
	Runs []lifecycle.Run
	Next string
}

// decommissions lists the decommission runs a page at a time, in
// request order as GET /decommissions pages them (the store walks its
// run indexes one way only), so every decommission is reachable.
func (c *Console) decommissions(w http.ResponseWriter, r *http.Request, s *session) {
	var page struct {
		Decommissions []lifecycle.Run
		Next          string `json:"next_cursor"`
	}
	if err := c.get(r.Context(), s, "/decommissions", pageQuery(r), &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := decommissionsData{Runs: page.Decommissions, Next: nextHref("/console/decommissions", nil, page.Next)}
	c.render(w, r, http.StatusOK, "decommissions", view{Title: "Decommissions", Session: s, Data: d})
}

// pageQuery is the API query of a console list's page: pageSize items
// from the request's cursor.
func pageQuery(r *http.Request) url.Values {
	q := url.Values{"limit": {pageSize}}
	if cur := r.URL.Query().Get("cursor"); cur != "" {
		q.Set("cursor", cur)
	}
	return q
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
	q := url.Values{"limit": {pageSize}, "order": {"desc"}} // newest first
	if cur := r.URL.Query().Get("cursor"); cur != "" {
		q.Set("cursor", cur)
	}
	if err := c.get(r.Context(), s, "/audit", q, &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := auditData{Entries: page.Entries, Next: nextHref("/console/audit", nil, page.Next)}
	c.render(w, r, http.StatusOK, "audit", view{Title: "Audit log", Session: s, Data: d})
}
