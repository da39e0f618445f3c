package console

import (
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// pageSize is how many rows a console list shows per page.
const pageSize = "50"

// node is a row of GET /nodes.
type nodeRow struct {
	ID        string
	SiteID    string `json:"site_id"`
	Hostname  string
	SKU       string
	GPUsTotal int `json:"gpus_total"`
	Status    lifecycle.NodeState
}

// fleetData is the fleet page: the counts by site and state, the
// filters and one page of matching nodes.
type fleetData struct {
	States   []lifecycle.NodeState
	Counts   []siteCount
	Site     string
	Status   string
	Hostname string
	Nodes    []nodeRow
	Next     string // the next page's link, empty on the last page
	Total    int
}

// siteCount is one site's line of counts by node state.
type siteCount struct {
	Site   string
	Total  int
	States map[lifecycle.NodeState]int
}

// fleet shows the nodes by site and state with filters and host-name search.
func (c *Console) fleet(w http.ResponseWriter, r *http.Request, s *session) {
	q := r.URL.Query()
	d := fleetData{States: lifecycle.NodeStates, Site: q.Get("site_id"), Status: q.Get("status"), Hostname: q.Get("hostname")}
	f := url.Values{"limit": {pageSize}}
	for _, k := range []string{"site_id", "status", "hostname", "cursor"} {
		if v := q.Get(k); v != "" {
			f.Set(k, v)
		}
	}
	var page struct {
		Nodes []nodeRow
		Next  string `json:"next_cursor"`
	}
	if err := c.get(r.Context(), s, "/nodes", f, &page); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d.Nodes = page.Nodes
	d.Next = nextHref("/console/fleet", f, page.Next)
	counts, err := c.counts(r, s)
	if err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d.Counts = counts
	for _, sc := range counts {
		d.Total += sc.Total
	}
	c.render(w, r, http.StatusOK, "fleet", view{Title: "Fleet", Session: s, Data: d})
}

// counts reads the nodes counted by site and state (GET /nodes/counts,
// from the store's indexes) into one line per site.
func (c *Console) counts(r *http.Request, s *session) ([]siteCount, error) {
	var in struct{ Counts []lifecycle.NodeCount }
	if err := c.get(r.Context(), s, "/nodes/counts", nil, &in); err != nil {
		return nil, err
	}
	var out []siteCount
	for _, n := range in.Counts {
		if len(out) == 0 || out[len(out)-1].Site != n.SiteID {
			out = append(out, siteCount{Site: n.SiteID, States: map[lifecycle.NodeState]int{}})
		}
		out[len(out)-1].Total += n.Count
		out[len(out)-1].States[n.Status] = n.Count
	}
	return out, nil
}
