package admin

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Bootstrap issues manual hosts' one-time bootstrap tickets, stored
// hashed, and names the CA the hosts check the agent API against
// (daemon/pki satisfies it). Errors: the store's (not_found for an
// unknown node).
type Bootstrap interface {
	IssueBootstrapTicket(ctx context.Context, st lifecycle.EnrollmentStore, nodeID string, ttl time.Duration) (string, time.Time, error)
	CABundlePEM() []byte
}

type noBootstrap struct{}

func (noBootstrap) IssueBootstrapTicket(context.Context, lifecycle.EnrollmentStore, string, time.Duration) (string, time.Time, error) {
	return "", time.Time{}, unwired("the bootstrap ticket authority")
}

func (noBootstrap) CABundlePEM() []byte { return nil }

// bootstrapResult answers POST /nodes and POST /nodes/{id}/bootstrap: the
// only time the ticket (inside url, cloud_init_url and command) is shown.
type bootstrapResult struct {
	NodeID       string              `json:"node_id"`
	Hostname     string              `json:"hostname"`
	Status       lifecycle.NodeState `json:"status"`
	OnboardingID string              `json:"onboarding_id"`
	ExpiresAt    time.Time           `json:"expires_at"`
	URL          string              `json:"url"`
	CloudInitURL string              `json:"cloud_init_url"`
	Command      string              `json:"command"`
	CABundlePEM  string              `json:"ca_bundle_pem"`
}

// issueBootstrap makes sure the node has a live manual onboarding, issues
// a ticket and answers it, audited without the ticket.
func (a *API) issueBootstrap(r *http.Request, c *call, n lifecycle.Node, ttl time.Duration, action string) (int, any, error) {
	runID, err := a.ensureManualRun(r, c, n)
	if err != nil {
		return 0, nil, err
	}
	ticket, exp, err := a.boot.IssueBootstrapTicket(r.Context(), a.store, n.ID, ttl)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: action, kind: "node", id: n.ID, expected: string(lifecycle.NodeBootstrapIssued),
		prior: string(n.Status), correlated: map[string]string{"site_id": n.SiteID, "onboarding_id": runID,
			"expires_at": exp.UTC().Format(time.RFC3339)}})
	url := a.agentURL + "/internal/v1/bootstrap/" + ticket
	ca := a.boot.CABundlePEM()
	return http.StatusCreated, bootstrapResult{NodeID: n.ID, Hostname: n.Hostname, Status: n.Status, OnboardingID: runID,
		ExpiresAt: exp.UTC(), URL: url + "?mode=shell", CloudInitURL: url + "?mode=cloud_init",
		Command: bootstrapCommand(url+"?mode=shell", ca), CABundlePEM: string(ca)}, nil
}

// bootstrapCommand is the line an operator pastes on the host: it checks
// the agent API against the daemon's CA (carried inline, base64), fetches
// the script once and runs it as root. It exits non-zero when the fetch
// is refused (printing the daemon's answer, which says why) or the script
// fails, and removes its temporary directory either way. curl's
// --fail-with-body is avoided: older releases lack it.
func bootstrapCommand(url string, caPEM []byte) string {
	return fmt.Sprintf(`(d=$(mktemp -d) && trap 'rm -rf "$d"' EXIT && echo '%s' | base64 -d >"$d/ca.pem" && `+
		`c=$(curl -sS --cacert "$d/ca.pem" -o "$d/bootstrap.sh" -w '%%{http_code}' '%s') && `+
		`if [ "$c" != 200 ]; then echo "bootstrap fetch refused (HTTP $c):" >&2; cat "$d/bootstrap.sh" >&2; echo >&2; exit 1; fi && `+
		`sudo sh "$d/bootstrap.sh")`,
		base64.StdEncoding.EncodeToString(caPEM), url)
}

// ensureManualRun returns the node's live manual onboarding: the latest
// one, resumed when it failed; a new one when there is none or it ended.
// A node onboarded through MAAS is a conflict: it enrolls by its deploy.
func (a *API) ensureManualRun(r *http.Request, c *call, n lifecycle.Node) (string, error) {
	const op = "admin.bootstrap"
	runs, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{NodeID: n.ID, Kind: lifecycle.RunOnboarding})
	if err != nil {
		return "", err
	}
	if len(runs) > 0 {
		last := runs[len(runs)-1]
		switch {
		case last.OnboardingMode != lifecycle.OnboardManual:
			return "", lifecycle.Errorf(lifecycle.CodeConflict, op,
				"node %s is onboarded through MAAS (run %s): its agent enrolls by the deploy; see node enrollment-token", n.ID, last.ID)
		case last.Status.Failed():
			_, err := a.runner.Act(r.Context(), runner.ActionRequest{RunID: last.ID, Action: lifecycle.ActionResume,
				Actor: c.who.Actor(), Role: string(c.who.Role), Reason: r.Header.Get(ReasonHeader), RequestID: c.requestID})
			return last.ID, err
		case !last.Status.Terminal():
			return last.ID, nil
		}
	}
	id := a.newIDs("", 1)[0]
	run := lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, OnboardingMode: lifecycle.OnboardManual, SiteID: n.SiteID,
		NodeID: n.ID, Hostname: n.Hostname, SKU: n.SKU, ProfileID: DefaultProfileID, Status: lifecycle.JobPending,
		RequestedBy: c.who.Actor()}
	if _, err := a.store.Submit(r.Context(), lifecycle.Submission{Runs: []lifecycle.Run{run}}); err != nil {
		return "", err
	}
	a.runner.Submit(id)
	a.audit(r.Context(), r, c, change{action: "onboarding.create", kind: "run", id: id,
		expected: string(lifecycle.JobPending), correlated: map[string]string{"site_id": n.SiteID, "node_id": n.ID,
			"mode": string(lifecycle.OnboardManual)}})
	return id, nil
}
