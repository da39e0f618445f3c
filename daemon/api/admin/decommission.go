package admin

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// notDecommissionable are the node states a decommission cannot start
// from: not yet enrolled, or already on the way out.
var notDecommissionable = []lifecycle.NodeState{lifecycle.NodeBootstrapIssued, lifecycle.NodeEnrolling,
	lifecycle.NodeRetired, lifecycle.NodeRemoving, lifecycle.NodeDeleted}

// decommission answers POST /nodes/{id}/decommission: it validates the
// mode's options, refuses a node in the wrong state or already in a run,
// creates the pending run once per Idempotency-Key, hands it to the
// runner and audits it. 202 for a new run, 200 for a replayed request.
func (a *API) decommission(r *http.Request, c *call) (int, any, error) {
	const op = "admin.decommission"
	var q answer.DecommissionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	q = normalized(q)
	req := lifecycle.DecommissionRequest{Mode: q.Mode, Erase: q.Erase, Storage: q.StorageCleanup, Reason: q.Reason}
	if err := req.Validate(); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	key, err := idempotencyKey(r, op)
	if err != nil {
		return 0, nil, err
	}
	n, err := a.store.GetNode(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	id := a.newIDs(key, 1)[0]
	if !a.retried(r, key, id) {
		if err := a.checkDecommissionable(r, op, n, id); err != nil {
			return 0, nil, err
		}
	}
	run := lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, Mode: q.Mode, Erase: q.Erase,
		StorageCleanup: q.StorageCleanup, Reason: q.Reason, SiteID: n.SiteID, NodeID: n.ID, Hostname: n.Hostname,
		SKU: n.SKU, IPMIIP: n.IPMIIP, MaasSystemID: n.MaasSystemID, Status: lifecycle.JobPending, RequestedBy: c.who.Actor()}
	sub := lifecycle.Submission{IdempotencyKey: key, RequestHash: decommissionHash(q, n.ID), Runs: []lifecycle.Run{run}}
	res, err := a.store.Submit(r.Context(), sub)
	if err != nil {
		return 0, nil, err
	}
	a.runner.Submit(res.RunIDs[0])
	out := answer.DecommissionResult{DecommissionID: res.RunIDs[0], Mode: q.Mode, Status: lifecycle.JobPending}
	if res.Replayed {
		return http.StatusOK, out, nil
	}
	r.Header.Set(ReasonHeader, q.Reason)
	a.audit(r.Context(), r, c, change{action: "decommission.create", kind: "run", id: out.DecommissionID,
		prior: string(n.Status), expected: string(lifecycle.JobPending), correlated: map[string]string{
			"node_id": n.ID, "site_id": n.SiteID, "mode": string(q.Mode), "idempotency_key": key}})
	return http.StatusAccepted, out, nil
}

// normalized spells the options left out as none.
func normalized(q answer.DecommissionRequest) answer.DecommissionRequest {
	if q.Erase == "" {
		q.Erase = lifecycle.EraseNone
	}
	if q.StorageCleanup == "" && q.Mode != lifecycle.ModeStorageCleanup {
		q.StorageCleanup = lifecycle.StorageNone
	}
	return q
}

// decommissionHash is the SHA-256 of q's canonical form for node nodeID: every
// option spelled, as stored idempotency keys were hashed.
func decommissionHash(q answer.DecommissionRequest, nodeID string) string {
	b, _ := json.Marshal(struct {
		Kind           string                     `json:"kind"`
		NodeID         string                     `json:"node_id"`
		Mode           lifecycle.DecommissionMode `json:"mode"`
		Erase          lifecycle.EraseMode        `json:"erase"`
		StorageCleanup lifecycle.StorageCleanup   `json:"storage_cleanup"`
		Reason         string                     `json:"reason"`
	}{"decommission", nodeID, q.Mode, q.Erase, q.StorageCleanup, q.Reason})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// retried reports whether a request with Idempotency-Key key already
// created run id: the store's Submit then answers the first result (or a
// conflict for a different request), whatever the node became since.
func (a *API) retried(r *http.Request, key, id string) bool {
	if key == "" {
		return false
	}
	_, err := a.store.GetRun(r.Context(), id)
	return err == nil
}

// checkDecommissionable refuses a node in a state a decommission cannot
// start from, one whose site takes no new work, and one that an
// unfinished run (other than own, a retried request's) already holds.
func (a *API) checkDecommissionable(r *http.Request, op string, n lifecycle.Node, own string) error {
	if slices.Contains(notDecommissionable, n.Status) {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s; it cannot be decommissioned", n.ID, n.Status)
	}
	if _, err := a.liveSite(r, op, n.SiteID); err != nil {
		return err
	}
	live, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{NodeID: n.ID, Statuses: inFlight})
	if err != nil {
		return err
	}
	for _, l := range live {
		if l.ID != own {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is already in %s run %s, which is %s", n.ID, l.Kind, l.ID, l.Status)
		}
	}
	return nil
}
