package admin

import (
	"context"
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// credentialsRequest is the body of POST /maas-sites/{id}/credentials. The
// MAAS API key is required (it is checked against MAAS before anything is
// written); the power credentials, the deploy password, the webhook HMAC
// secret and the LISTEN role's database password are optional, so each
// can be rotated on its own.
type credentialsRequest struct {
	MAASAPIKey     string            `json:"maas_api_key"`
	Power          *powerCredentials `json:"power_credentials"`
	DeployPassword *string           `json:"deploy_password"`
	WebhookSecret  *string           `json:"webhook_secret"`
	NotifyDBPass   *string           `json:"notify_db_password"`
}

type powerCredentials struct {
	User     string `json:"user"`
	Password string `json:"password"`
}

// credentialsResult names what was written, by path only.
type credentialsResult struct {
	SiteID  string   `json:"site_id"`
	MAAS    MAASInfo `json:"maas"`
	Written []string `json:"written_paths"`
}

func (q credentialsRequest) check(op string) error {
	if q.MAASAPIKey == "" {
		return lifecycle.Invalid(op, "maas_api_key", "maas_api_key is required")
	}
	if len(strings.Split(q.MAASAPIKey, ":")) != 3 || len(q.MAASAPIKey) > 512 {
		return lifecycle.Invalid(op, "maas_api_key", "maas_api_key must be consumer_key:token_key:token_secret")
	}
	if p := q.Power; p != nil {
		if p.User == "" || len(p.User) > 64 {
			return lifecycle.Invalid(op, "power_credentials.user", "power_credentials.user is required (at most 64 characters)")
		}
		if p.Password == "" || len(p.Password) > 256 {
			return lifecycle.Invalid(op, "power_credentials.password", "power_credentials.password is required (at most 256 characters)")
		}
	}
	if d := q.DeployPassword; d != nil && (*d == "" || len(*d) > 256) {
		return lifecycle.Invalid(op, "deploy_password", "deploy_password must be 1-256 characters")
	}
	if w := q.WebhookSecret; w != nil && (len(*w) < 16 || len(*w) > 256) {
		return lifecycle.Invalid(op, "webhook_secret", "webhook_secret must be 16-256 characters")
	}
	return q.checkNotify(op)
}

// checkNotify checks notify_db_password when given.
func (q credentialsRequest) checkNotify(op string) error {
	if n := q.NotifyDBPass; n != nil && (*n == "" || len(*n) > 256) {
		return lifecycle.Invalid(op, "notify_db_password", "notify_db_password must be 1-256 characters")
	}
	return nil
}

// putCredentials answers POST /maas-sites/{id}/credentials: validate the
// key against MAAS (422 when MAAS is unreachable or refuses it), then
// write the secrets to the site's Vault paths. The site keeps only paths.
func (a *API) putCredentials(r *http.Request, c *call) (int, any, error) {
	const op = "admin.putCredentials"
	var q credentialsRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := q.check(op); err != nil {
		return 0, nil, err
	}
	s, err := a.undeletedSite(r.Context(), op, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if err := a.credentialsWired(); err != nil {
		return 0, nil, err
	}
	info, err := a.probe(r.Context(), s.APIBaseURL, q.MAASAPIKey)
	if err != nil {
		return 0, nil, credentialsRefused(op, err)
	}
	if !info.Admin {
		return 0, nil, lifecycle.Invalid(op, "maas_api_key", "maas_api_key belongs to MAAS user %.64q, who is not a MAAS admin: "+
			"commissioning, storage layout, machine tokens and the hardware-sync settings need an admin's key; nothing was written", info.User)
	}
	res := credentialsResult{SiteID: s.ID, MAAS: info}
	for _, w := range q.writes(s) {
		if err := a.secrets.Write(r.Context(), w.path, w.data); err != nil {
			return 0, nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "writing %s to Vault failed (%s); earlier paths were written: %v",
				w.path, lifecycle.ErrorCode(err), res.Written)
		}
		res.Written = append(res.Written, w.path)
	}
	a.audit(r.Context(), r, c, change{action: "site.credentials", kind: "site", id: s.ID,
		correlated: map[string]string{"vault_paths": strings.Join(res.Written, ",")}})
	return http.StatusOK, res, nil
}

type secretWrite struct {
	path string
	data map[string]string
}

// writes lists the Vault writes of q at s's paths (seed 001 §3.2).
func (q credentialsRequest) writes(s lifecycle.Site) []secretWrite {
	out := []secretWrite{{s.APITokenVaultPath, map[string]string{"token": q.MAASAPIKey}}}
	if q.Power != nil {
		out = append(out, secretWrite{s.DefaultPowerCredsVaultPath, map[string]string{"user": q.Power.User, "pass": q.Power.Password}})
	}
	if q.DeployPassword != nil {
		out = append(out, secretWrite{s.DeployPasswordVaultPath, map[string]string{"password": *q.DeployPassword}})
	}
	if q.WebhookSecret != nil {
		out = append(out, secretWrite{lifecycle.WebhookSecretVaultPath(s.ID), map[string]string{"secret": *q.WebhookSecret}})
	}
	if q.NotifyDBPass != nil {
		out = append(out, secretWrite{lifecycle.NotifyDBPasswordVaultPath(s.ID), map[string]string{"password": *q.NotifyDBPass}})
	}
	return out
}

// credentialsRefused turns a failed MAAS check into a 422 on the field at
// fault. The cause's text is not kept: it could echo the key.
func credentialsRefused(op string, err error) error {
	switch lifecycle.ErrorCode(err) {
	case lifecycle.CodeUnavailable:
		return lifecycle.Invalid(op, "api_base_url", "MAAS at the site's api_base_url is unreachable; nothing was written")
	case lifecycle.CodeUnauthorized, lifecycle.CodeForbidden:
		return lifecycle.Invalid(op, "maas_api_key", "MAAS refused maas_api_key; nothing was written")
	case lifecycle.CodeInvalid:
		if lifecycle.ErrorField(err) == "api_key" {
			return lifecycle.Invalid(op, "maas_api_key", "maas_api_key is not a MAAS API key; nothing was written")
		}
	}
	return lifecycle.Invalid(op, "api_base_url", "MAAS did not answer as expected (%s); nothing was written", lifecycle.ErrorCode(err))
}

func (a *API) probe(ctx context.Context, baseURL, key string) (MAASInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, a.probeTO)
	defer cancel()
	return a.prober.Probe(ctx, baseURL, key)
}

// undeletedSite loads a site that may still be configured.
func (a *API) undeletedSite(ctx context.Context, op, id string) (lifecycle.Site, error) {
	s, err := a.store.GetSite(ctx, id)
	if err == nil && s.Status == lifecycle.SiteDeleted {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is deleted", id)
	}
	return s, err
}

// credentialsWired is unavailable when Vault or MAAS access is not wired:
// without it an unwired prober would read as an unreachable MAAS.
func (a *API) credentialsWired() error {
	if _, no := a.secrets.(noSecrets); no {
		return unwired("Vault")
	}
	if _, no := a.prober.(noProber); no {
		return unwired("MAAS")
	}
	return nil
}
