package admin

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxRoCEItems bounds one bulk upsert.
const maxRoCEItems = 10000

// roceItem is one member of a bulk upsert (seed 001 §3.4).
type roceItem struct {
	Hostname  string `json:"hostname"`
	Interface string `json:"interface"`
	IPv4CIDR  string `json:"ipv4_cidr"`
}

type roceRequest struct {
	Items []roceItem `json:"items"`
}

// toAssignments validates every item, naming the bad one as items[i].field,
// and refuses a (hostname, interface) pair given twice.
func (q roceRequest) toAssignments(op, siteID string, newID func() (string, error)) ([]lifecycle.RoCEAssignment, error) {
	if len(q.Items) == 0 || len(q.Items) > maxRoCEItems {
		return nil, lifecycle.Invalid(op, "items", "items must hold 1-%d assignments", maxRoCEItems)
	}
	out := make([]lifecycle.RoCEAssignment, 0, len(q.Items))
	seen := map[string]int{}
	for i, it := range q.Items {
		a := lifecycle.RoCEAssignment{SiteID: siteID, Hostname: strings.ToLower(it.Hostname), Interface: it.Interface, IPv4CIDR: it.IPv4CIDR}
		if err := a.Validate(); err != nil {
			return nil, lifecycle.Invalid(op, fmt.Sprintf("items[%d].%s", i, lifecycle.ErrorField(err)), "items[%d]: %s", i, msgOf(err))
		}
		k := a.Hostname + "/" + a.Interface
		if j, dup := seen[k]; dup {
			return nil, lifecycle.Invalid(op, fmt.Sprintf("items[%d].interface", i), "items[%d] repeats items[%d] (%s %s)", i, j, a.Hostname, a.Interface)
		}
		seen[k] = i
		id, err := newID()
		if err != nil {
			return nil, err
		}
		a.ID = id
		out = append(out, a)
	}
	return out, nil
}

// msgOf returns an Error's operator message without its op prefix.
func msgOf(err error) string {
	if e, ok := err.(*lifecycle.Error); ok && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}

// upsertRoCE answers POST /maas-sites/{id}/roce-assignments: every item is
// inserted or updated by (hostname, interface), all or none.
func (a *API) upsertRoCE(r *http.Request, c *call) (int, any, error) {
	const op = "admin.upsertRoCE"
	var q roceRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	items, err := q.toAssignments(op, c.vars["id"], func() (string, error) { return lifecycle.NewID(a.rand) })
	if err != nil {
		return 0, nil, err
	}
	if _, err := a.undeletedSite(r.Context(), op, c.vars["id"]); err != nil {
		return 0, nil, err
	}
	stored, err := a.store.UpsertRoCEAssignments(r.Context(), c.vars["id"], items)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.roce.upsert", kind: "site", id: c.vars["id"],
		correlated: map[string]string{"items": fmt.Sprint(len(stored))}})
	return http.StatusOK, map[string]any{"items": stored}, nil
}

// listRoCE answers GET /maas-sites/{id}/roce-assignments[?hostname=]: one
// page by hostname and interface, cut from the site's whole list in
// memory (a site's assignments are read whole by every onboarding too).
func (a *API) listRoCE(r *http.Request, c *call) (int, any, error) {
	q := r.URL.Query()
	host := strings.ToLower(q.Get("hostname"))
	p, err := readPage("admin.listRoCE", q, "roce-assignments", c.vars["id"], host)
	if err != nil {
		return 0, nil, err
	}
	if _, err := a.store.GetSite(r.Context(), c.vars["id"]); err != nil {
		return 0, nil, err
	}
	items, err := a.store.ListRoCEAssignments(r.Context(), c.vars["id"], host)
	if err != nil {
		return 0, nil, err
	}
	items, next := memPage(p, items, func(a lifecycle.RoCEAssignment) string {
		return a.Hostname + "\x00" + a.Interface + "\x00" + a.ID
	})
	return http.StatusOK, listBody("items", items, next), nil
}

func (a *API) deleteRoCE(r *http.Request, c *call) (int, any, error) {
	const op = "admin.deleteRoCE"
	if _, err := a.undeletedSite(r.Context(), op, c.vars["id"]); err != nil {
		return 0, nil, err
	}
	if err := a.store.DeleteRoCEAssignment(r.Context(), c.vars["id"], c.vars["aid"]); err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.roce.delete", kind: "roce_assignment", id: c.vars["aid"],
		correlated: map[string]string{"site_id": c.vars["id"]}})
	return http.StatusNoContent, nil, nil
}
