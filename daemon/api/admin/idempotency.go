package admin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// IdempotencyHeader makes a submission safe to retry: the same key with
// the same request returns the first result and creates nothing; with a
// different request it is a conflict.
const IdempotencyHeader = "Idempotency-Key"

func idempotencyKey(r *http.Request, op string) (string, error) {
	k := r.Header.Get(IdempotencyHeader)
	if len(k) > 128 || strings.IndexFunc(k, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0 {
		return "", lifecycle.Invalid(op, IdempotencyHeader, "%s must be 1-128 printable ASCII characters", IdempotencyHeader)
	}
	return k, nil
}

// requestHash is the SHA-256 of the request's canonical form: selectors,
// lower-cased host names, canonical addresses and region overrides, in
// the given order.
func requestHash(q answer.BatchRequest, batch bool) string {
	canon := answer.BatchRequest{SiteID: q.SiteID, ProfileID: DefaultProfileID, SKUID: q.SKUID}
	for _, n := range q.Nodes {
		// gpus_total is the SKU's (checked before); a region only when it
		// overrides the site's, so that earlier requests hash as they did.
		canon.Nodes = append(canon.Nodes, answer.OnboardNode{Hostname: strings.ToLower(n.Hostname),
			IPMIIP: netip.MustParseAddr(n.IPMIIP).String(), RegionCode: region(q, n)})
	}
	b, _ := json.Marshal(struct {
		Batch bool `json:"batch"`
		answer.BatchRequest
	}{batch, canon})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// newIDs returns n ids (the batch's, then each run's). With an idempotency
// key they derive from it, so a retry names the runs the first request
// made; without one they are random.
func (a *API) newIDs(key string, n int) []string {
	out := make([]string, n)
	for i := range out {
		src := a.rand
		if key != "" {
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, i)))
			src = bytes.NewReader(sum[:16])
		}
		out[i], _ = lifecycle.NewID(src) // a 16-byte reader cannot fail; crypto/rand does not
	}
	return out
}

// checkInFlight refuses to onboard a host name or BMC address that an
// unfinished onboarding of the site already holds, naming that run and
// its state. The submission's own runs (a retry) do not count.
func (a *API) checkInFlight(r *http.Request, op string, sub lifecycle.Submission) error {
	live, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{SiteID: sub.Runs[0].SiteID,
		Kind: lifecycle.RunOnboarding, Statuses: inFlight})
	if err != nil {
		return err
	}
	own := map[string]bool{}
	for _, run := range sub.Runs {
		own[run.ID] = true
	}
	for _, run := range sub.Runs {
		for _, l := range live {
			if !own[l.ID] && (l.Hostname == run.Hostname || l.IPMIIP == run.IPMIIP) {
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "%s (%s) is already being onboarded by run %s, which is %s",
					run.Hostname, run.IPMIIP, l.ID, l.Status)
			}
		}
	}
	return nil
}
