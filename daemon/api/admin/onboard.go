package admin

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func (a *API) onboard(r *http.Request, c *call) (int, any, error) {
	const op = "admin.onboard"
	var q answer.OnboardRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkSelectors(op, q.SiteID, q.ProfileID, q.SKUID); err != nil {
		return 0, nil, err
	}
	n := answer.OnboardNode{Hostname: q.Hostname, IPMIIP: q.IPMIIP, GPUsTotal: q.GPUsTotal, RegionCode: q.RegionCode}
	if err := checkNode(op, "", n); err != nil {
		return 0, nil, err
	}
	b := answer.BatchRequest{SiteID: q.SiteID, ProfileID: q.ProfileID, SKUID: q.SKUID, Nodes: []answer.OnboardNode{n}}
	res, replayed, err := a.submit(r, c, op, b, false)
	if err != nil {
		return 0, nil, err
	}
	return created(replayed), answer.OnboardResult{OnboardingID: res.RunIDs[0], NodeID: res.NodeIDs[0], Status: lifecycle.JobPending}, nil
}

func (a *API) onboardBatch(r *http.Request, c *call) (int, any, error) {
	const op = "admin.onboardBatch"
	var q answer.BatchRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkSelectors(op, q.SiteID, q.ProfileID, q.SKUID); err != nil {
		return 0, nil, err
	}
	if err := checkNodes(op, q.Nodes); err != nil {
		return 0, nil, err
	}
	res, replayed, err := a.submit(r, c, op, q, true)
	if err != nil {
		return 0, nil, err
	}
	out := answer.BatchResult{BatchID: res.BatchID, Onboardings: make([]answer.BatchMember, len(res.RunIDs))}
	for i, id := range res.RunIDs {
		out.Onboardings[i] = answer.BatchMember{Hostname: strings.ToLower(q.Nodes[i].Hostname), OnboardingID: id, NodeID: res.NodeIDs[i]}
	}
	return created(replayed), out, nil
}

// created is 201 for a new submission and 200 for a replayed one.
func created(replayed bool) int {
	if replayed {
		return http.StatusOK
	}
	return http.StatusCreated
}

// submit checks q's SKU against the catalog, creates the runs of q (and
// its batch) once per Idempotency-Key, hands them to the runner, and
// audits the creation.
func (a *API) submit(r *http.Request, c *call, op string, q answer.BatchRequest, batch bool) (submitted, bool, error) {
	var res submitted
	key, err := idempotencyKey(r, op)
	if err != nil {
		return res, false, err
	}
	sku, err := a.checkShape(op, q, batch)
	if err != nil {
		return res, false, err
	}
	if _, err := a.liveSite(r, op, q.SiteID); err != nil {
		return res, false, siteRef(op, err)
	}
	// Ids: the batch, one per run, then one node id per run, reserved now
	// so that the answer names the node the run will create (seed 001 §4.1).
	ids := a.newIDs(key, 2*len(q.Nodes)+1)
	sub := lifecycle.Submission{IdempotencyKey: key, RequestHash: requestHash(q, batch)}
	for i, n := range q.Nodes {
		sub.Runs = append(sub.Runs, lifecycle.Run{ID: ids[i+1], NodeID: ids[len(q.Nodes)+i+1], Kind: lifecycle.RunOnboarding, SiteID: q.SiteID,
			Hostname: strings.ToLower(n.Hostname), IPMIIP: netip.MustParseAddr(n.IPMIIP).String(), SKU: sku.ID,
			GPUsTotal: sku.GPUs, RegionCode: region(q, n), ProfileID: DefaultProfileID, Status: lifecycle.JobPending, RequestedBy: c.who.Actor()})
	}
	if batch {
		sub.Batch = &lifecycle.Batch{ID: ids[0], SiteID: q.SiteID, Kind: lifecycle.RunOnboarding,
			ProfileID: DefaultProfileID, SKU: q.SKUID, RequestedBy: c.who.Actor()}
	}
	if err := a.checkInFlight(r, op, sub); err != nil {
		return res, false, err
	}
	if res.SubmissionResult, err = a.store.Submit(r.Context(), sub); err != nil {
		return res, false, err
	}
	for _, id := range res.RunIDs {
		a.runner.Submit(id)
	}
	if !res.Replayed {
		a.auditSubmission(r, c, sub, res.SubmissionResult)
	}
	res.NodeIDs, err = a.nodeIDs(r, sub, res.RunIDs)
	return res, res.Replayed, err
}

// submitted is a submission's result with the node id of each run.
type submitted struct {
	lifecycle.SubmissionResult
	NodeIDs []string
}

// nodeIDs returns the node id reserved for each run: the submission's, or
// for a replay whose runs differ, the stored runs'.
func (a *API) nodeIDs(r *http.Request, sub lifecycle.Submission, runIDs []string) ([]string, error) {
	out := make([]string, len(runIDs))
	for i, id := range runIDs {
		if i < len(sub.Runs) && sub.Runs[i].ID == id {
			out[i] = sub.Runs[i].NodeID
			continue
		}
		run, err := a.store.GetRun(r.Context(), id)
		if err != nil {
			return nil, err
		}
		out[i] = run.NodeID
	}
	return out, nil
}

// auditSubmission audits each created run, all in one store write: a
// batch of 1,000 is one commit, not 1,000 queued behind the runs it starts.
func (a *API) auditSubmission(r *http.Request, c *call, sub lifecycle.Submission, res lifecycle.SubmissionResult) {
	changes := make([]change, len(res.RunIDs))
	for i, id := range res.RunIDs {
		changes[i] = change{action: "onboarding.create", kind: "run", id: id,
			expected: string(lifecycle.JobPending), correlated: map[string]string{
				"batch_id": res.BatchID, "site_id": sub.Runs[0].SiteID, "idempotency_key": sub.IdempotencyKey}}
	}
	a.auditAll(r.Context(), r, c, changes)
}

// siteRef turns a missing site named in a body into a field error.
func siteRef(op string, err error) error {
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.Invalid(op, "site_id", "site_id names no site")
	}
	return err
}
