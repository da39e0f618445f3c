package admin

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteAnswer is a site as the site routes answer it, with the warnings an
// operator must read (a MAAS key that travels in clear).
type siteAnswer struct {
	lifecycle.Site
	Warnings []string `json:"warnings,omitempty"`
}

// answerSite wraps s with its warnings, logging each once per call.
func (a *API) answerSite(s lifecycle.Site) siteAnswer {
	w := siteWarnings(s.APIBaseURL)
	for _, m := range w {
		a.log.Warn(m, "site", s.ID)
	}
	return siteAnswer{Site: s, Warnings: w}
}

// siteWarnings warns when api_base_url is plain http to a host other than
// loopback: MAAS serves plain HTTP by default and OAuth PLAINTEXT sends
// the key's secret itself in every request.
func siteWarnings(apiBaseURL string) []string {
	u, err := url.Parse(apiBaseURL)
	if err != nil || u.Scheme != "http" || isLoopback(u.Hostname()) {
		return nil
	}
	return []string{"api_base_url is plain http to " + u.Hostname() +
		": the MAAS API key travels in clear in every request (OAuth PLAINTEXT); use https"}
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// changedFields names the site members whose JSON differs between a and
// b, in a stable order: what an audit entry says changed, never values.
func changedFields(a, b lifecycle.Site) []string {
	var ma, mb map[string]json.RawMessage
	ja, _ := json.Marshal(fieldsOf(a))
	jb, _ := json.Marshal(fieldsOf(b))
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	var out []string
	for k, v := range mb {
		if string(ma[k]) != string(v) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// patchRequest is the body of PATCH /maas-sites/{id}: site members, and
// the MAAS API key, which a change of api_base_url requires so that the
// stored key is never sent to an address it was not given for.
type patchRequest struct {
	siteFields
	MAASAPIKey *string `json:"maas_api_key"`
	// NotifyDBPassword is the region database password, which a change
	// of notify's target requires (see renotify).
	NotifyDBPassword *string `json:"notify_db_password"`
}

// rekey checks and installs the key a URL change comes with: the key is
// proved against the new address first (422 when refused), then written
// to the site's Vault path. A URL change without a key is refused.
func (a *API) rekey(r *http.Request, op string, cur lifecycle.Site, q patchRequest) (bool, error) {
	moved := q.APIBaseURL != nil && *q.APIBaseURL != cur.APIBaseURL
	if q.MAASAPIKey == nil {
		if moved {
			return false, lifecycle.Invalid(op, "maas_api_key",
				"changing api_base_url requires maas_api_key in the same request; the stored key is never sent to a new address")
		}
		return false, nil
	}
	creds := credentialsRequest{MAASAPIKey: *q.MAASAPIKey}
	if err := creds.check(op); err != nil {
		return false, err
	}
	if err := a.credentialsWired(); err != nil {
		return false, err
	}
	next := cur
	q.apply(&next)
	if _, err := a.probe(r.Context(), next.APIBaseURL, creds.MAASAPIKey); err != nil {
		return false, credentialsRefused(op, err)
	}
	w := creds.writes(cur)[0]
	if err := a.secrets.Write(r.Context(), w.path, w.data); err != nil {
		return false, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "writing the MAAS key to Vault failed (%s); the site is unchanged",
			lifecycle.ErrorCode(err))
	}
	return true, nil
}
