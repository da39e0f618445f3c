package admin

import (
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeCounts is GET /nodes/counts: the nodes of every site counted by
// state, from the store's indexes, and their total.
type nodeCounts struct {
	Counts []lifecycle.NodeCount `json:"counts"`
	Total  int                   `json:"total"`
}

func (a *API) countNodes(r *http.Request, _ *call) (int, any, error) {
	counts, err := a.store.CountNodes(r.Context())
	if err != nil {
		return 0, nil, err
	}
	out := nodeCounts{Counts: counts}
	for _, c := range counts {
		out.Total += c.Count
	}
	return http.StatusOK, out, nil
}

// batchView is a batch in GET /batches: what was asked, by whom, and its
// runs' aggregate, without the run ids (GET /onboardings?batch_id= pages
// through them).
type batchView struct {
	ID          string                 `json:"id"`
	SiteID      string                 `json:"site_id"`
	Kind        lifecycle.RunKind      `json:"kind"`
	ProfileID   string                 `json:"profile_id,omitempty"`
	SKU         string                 `json:"sku,omitempty"`
	RequestedBy string                 `json:"requested_by,omitempty"`
	RequestedAt time.Time              `json:"requested_at"`
	Summary     lifecycle.BatchSummary `json:"summary"`
}

// listBatches answers GET /batches with filter site_id: one page of
// batches in id order, each with its runs counted by status.
func (a *API) listBatches(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listBatches"
	q := r.URL.Query()
	f := lifecycle.BatchFilter{SiteID: q.Get("site_id")}
	p, err := readPage(op, q, "batches", f.SiteID)
	if err != nil {
		return 0, nil, err
	}
	f.After, f.Limit = p.after, p.limit+1
	bs, err := a.store.ListBatches(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	bs, next := cutPage(p, bs, func(b lifecycle.BatchCounts) string { return b.Batch.ID })
	out := make([]batchView, 0, len(bs))
	for _, bc := range bs {
		b := bc.Batch
		out = append(out, batchView{ID: b.ID, SiteID: b.SiteID, Kind: b.Kind, ProfileID: b.ProfileID, SKU: b.SKU,
			RequestedBy: b.RequestedBy, RequestedAt: b.RequestedAt, Summary: bc.Summary()})
	}
	return http.StatusOK, listBody("batches", out, next), nil
}
