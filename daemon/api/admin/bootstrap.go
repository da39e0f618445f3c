package admin

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// createNodeRequest is POST /nodes: a host MAAS does not deploy, enrolled
// in manual mode (seed 001 §2.1). TicketTTLSeconds, when set, shortens
// the bootstrap ticket's life below the policy's enrollment token TTL.
type createNodeRequest struct {
	SiteID           string `json:"site_id"`
	Hostname         string `json:"hostname"`
	SKU              string `json:"sku"`
	Reason           string `json:"reason"`
	TicketTTLSeconds int    `json:"ticket_ttl_seconds"`
}

// bootstrapRequest is POST /nodes/{id}/bootstrap.
type bootstrapRequest struct {
	Reason           string `json:"reason"`
	TicketTTLSeconds int    `json:"ticket_ttl_seconds"`
}

// createNode answers POST /nodes: the node in bootstrap_issued, its
// manual onboarding (which waits for the agent, bounded by the policy's
// enrollment_timeout) and a one-time bootstrap ticket, shown only here.
func (a *API) createNode(r *http.Request, c *call) (int, any, error) {
	const op = "admin.createNode"
	var q createNodeRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := q.check(op); err != nil {
		return 0, nil, err
	}
	sku, err := a.skus.Lookup(op, "sku", q.SKU)
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set(ReasonHeader, q.Reason)
	site, err := a.liveSite(r, op, q.SiteID)
	if err != nil {
		return 0, nil, siteRef(op, err)
	}
	pol, err := a.store.GetSitePolicy(r.Context(), q.SiteID)
	if err != nil {
		return 0, nil, err
	}
	ttl, err := ticketTTL(op, q.TicketTTLSeconds, pol)
	if err != nil {
		return 0, nil, err
	}
	host := strings.ToLower(q.Hostname)
	if err := a.hostnameFree(r, op, q.SiteID, host); err != nil {
		return 0, nil, err
	}
	ids := a.newIDs("", 2)
	n := lifecycle.Node{ID: ids[0], SiteID: q.SiteID, Hostname: host, SKU: sku.ID, GPUsTotal: sku.GPUs,
		RegionCode: site.RegionCode, Port: lifecycle.DefaultNodePort, Status: lifecycle.NodeBootstrapIssued}
	if err := a.store.CreateNode(r.Context(), n); err != nil {
		return 0, nil, err
	}
	return a.issueBootstrap(r, c, n, ttl, "node.create")
}

// check validates the request's fields (the SKU's catalog entry is
// looked up after).
func (q createNodeRequest) check(op string) error {
	switch {
	case q.SiteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case len(q.SiteID) > 64:
		return lifecycle.Invalid(op, "site_id", "site_id is not a site id")
	case q.Hostname == "":
		return lifecycle.Invalid(op, "hostname", "hostname is required")
	case !lifecycle.ValidHostname(q.Hostname):
		return lifecycle.Invalid(op, "hostname", "hostname %.64q is not a host name (one DNS label)", q.Hostname)
	case q.SKU == "":
		return lifecycle.Invalid(op, "sku", "sku is required")
	case !skuPattern.MatchString(q.SKU):
		return lifecycle.Invalid(op, "sku", "sku %.64q must be 1-64 letters, digits, '.', '_' or '-'", q.SKU)
	}
	return checkReason(op, q.Reason)
}

func checkReason(op, reason string) error {
	if reason == "" || len(reason) > 512 {
		return lifecycle.Invalid(op, "reason", "reason is required (at most 512 characters)")
	}
	return nil
}

// ticketTTL is the ticket's life: the asked seconds, or by default the
// longest allowed, which is the policy's enrollment token TTL or its
// enrollment timeout, whichever is shorter: the manual onboarding waits
// for the agent that long, and a ticket must not outlive the run that
// would activate its node.
func ticketTTL(op string, secs int, pol lifecycle.SitePolicy) (time.Duration, error) {
	most := min(pol.EnrollmentTokenTTLSeconds, pol.EnrollmentTimeoutSeconds)
	if secs == 0 {
		return time.Duration(most) * time.Second, nil
	}
	if secs < 30 || secs > most {
		return 0, lifecycle.Invalid(op, "ticket_ttl_seconds",
			"ticket_ttl_seconds %d is outside 30-%d (the shorter of the site's enrollment_token_ttl_seconds and enrollment_timeout_seconds)",
			secs, most)
	}
	return time.Duration(secs) * time.Second, nil
}

// hostnameFree refuses a host name that an undeleted node of the site, or
// an unfinished onboarding of it, holds (409 naming them).
func (a *API) hostnameFree(r *http.Request, op, siteID, host string) error {
	nodes, err := a.store.ListNodes(r.Context(), lifecycle.NodeFilter{SiteID: siteID})
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if n.Hostname == host && n.Status == lifecycle.NodeBootstrapIssued {
			// A create whose ticket could not be issued leaves this node:
			// a new ticket, not a second node, is what the operator needs.
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %s is already node %s (bootstrap_issued): "+
				"issue it a new bootstrap command with `maas-sidecar node bootstrap %s --reason ...`", host, n.ID, n.ID)
		}
		if n.Hostname == host && n.Status != lifecycle.NodeDeleted {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %s is already node %s (%s)", host, n.ID, n.Status)
		}
	}
	runs, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{SiteID: siteID, Kind: lifecycle.RunOnboarding, Statuses: inFlight})
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(runs, func(run lifecycle.Run) bool { return run.Hostname == host }); i >= 0 {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "%s is already being onboarded by run %s, which is %s",
			host, runs[i].ID, runs[i].Status)
	}
	return nil
}

// reissueBootstrap answers POST /nodes/{id}/bootstrap: a new ticket for a
// manual node whose agent has not enrolled (the previous ticket, or the
// token its script carried, stops working); a failed onboarding resumes
// its wait, and a node left without one gets a new one.
func (a *API) reissueBootstrap(r *http.Request, c *call) (int, any, error) {
	const op = "admin.reissueBootstrap"
	var q bootstrapRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	r.Header.Set(ReasonHeader, q.Reason)
	n, err := a.store.GetNode(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if (n.Status != lifecycle.NodeBootstrapIssued && n.Status != lifecycle.NodeEnrolling) || n.EnrolledAt != nil {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s with its agent %s: it needs no bootstrap",
			n.ID, n.Status, enrolledWord(n))
	}
	pol, err := a.store.GetSitePolicy(r.Context(), n.SiteID)
	if err != nil {
		return 0, nil, err
	}
	ttl, err := ticketTTL(op, q.TicketTTLSeconds, pol)
	if err != nil {
		return 0, nil, err
	}
	return a.issueBootstrap(r, c, n, ttl, "node.bootstrap")
}

func enrolledWord(n lifecycle.Node) string {
	if n.EnrolledAt != nil {
		return "enrolled"
	}
	return "not enrolled"
}
