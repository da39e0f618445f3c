package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// inventoryBody is GET /nodes/{id}/inventory: the node's bill of
// materials (lifecycle.NodeInventory) and the serials the clean
// certificate names (GPUs first).
type inventoryBody struct {
	NodeID  string   `json:"node_id"`
	SKU     string   `json:"sku,omitempty"`
	Serials []string `json:"serials"`
	lifecycle.NodeInventory
}

// getInventory answers GET /nodes/{id}/inventory; a node whose agent
// never reported one answers with nothing recorded.
func (a *API) getInventory(r *http.Request, c *call) (int, any, error) {
	n, err := a.store.GetNode(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, inventoryOf(n), nil
}

func inventoryOf(n lifecycle.Node) inventoryBody {
	out := inventoryBody{NodeID: n.ID, SKU: n.SKU, Serials: n.Serials()}
	if out.Serials == nil {
		out.Serials = []string{}
	}
	if n.Inventory != nil {
		out.NodeInventory = *n.Inventory
	}
	return out
}

// acceptInventory answers POST /nodes/{id}/inventory/accept: the change
// a turnover found (the pending observation) becomes the recorded bill
// of materials, audited with the reason and the changes accepted. Body:
// {"reason": "..."}. 409 when nothing is pending. The node stays in its
// state: a quarantined node returns to service by POST .../activate.
func (a *API) acceptInventory(r *http.Request, c *call) (int, any, error) {
	const op = "admin.acceptInventory"
	var q answer.ActionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	ctx, id := r.Context(), c.vars["id"]
	var changes []string
	n, err := a.store.UpdateNode(ctx, id, func(n *lifecycle.Node) error {
		inv, err := n.Inventory.Accept(n.ID, a.now().UTC())
		if err != nil {
			return err
		}
		changes = n.Inventory.Changes
		n.Inventory = inv
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set(ReasonHeader, q.Reason)
	corr := map[string]string{"site_id": n.SiteID, "changes": joinCapped(changes)}
	a.audit(ctx, r, c, change{action: "node.inventory.accept", kind: "node", id: id, prior: "inventory_pending",
		expected: "inventory_recorded", correlated: corr})
	return http.StatusOK, inventoryOf(n), nil
}

// joinCapped joins the changes for the audit entry, bounded.
func joinCapped(changes []string) string {
	out := ""
	for i, c := range changes {
		if len(out)+len(c) > 1000 {
			return out + "; …"
		}
		if i > 0 {
			out += "; "
		}
		out += c
	}
	return out
}
