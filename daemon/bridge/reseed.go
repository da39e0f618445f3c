package bridge

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// ReseedPayloads completes node.hw_sync_reseed payloads at dispatch: the
// stored payload names the site and machine; the machine's MAAS token is
// read from MAAS now (with the site's API key read from Vault now) and
// goes only to the agent, over mutual TLS.
type ReseedPayloads struct {
	Sites interface {
		GetSite(ctx context.Context, id string) (lifecycle.Site, error)
	}
	Secrets   workflow.Secrets
	Connector workflow.Connector
	RackURL   string // as Bootstrap.RackURL
}

// reseedPayload is what the agent's hw_sync_reseed task reads.
type reseedPayload struct {
	Endpoint    string `json:"endpoint"`
	ConsumerKey string `json:"consumer_key"`
	TokenKey    string `json:"token_key"`
	TokenSecret string `json:"token_secret"`
}

// Resolve is an agentapi.PayloadResolver.
func (r ReseedPayloads) Resolve(ctx context.Context, t lifecycle.AgentTask) ([]byte, error) {
	const op = "bridge.ReseedPayloads"
	if t.Type != lifecycle.TaskHWSyncReseed {
		return t.Payload, nil
	}
	var ref struct{ SiteID, SystemID string }
	if err := json.Unmarshal(t.Payload, &struct {
		SiteID   *string `json:"site_id"`
		SystemID *string `json:"system_id"`
	}{&ref.SiteID, &ref.SystemID}); err != nil || ref.SiteID == "" || ref.SystemID == "" {
		return nil, lifecycle.Errorf(lifecycle.CodeInvalid, op, "task %s names no site and machine", t.ID)
	}
	site, err := r.Sites.GetSite(ctx, ref.SiteID)
	if err != nil {
		return nil, err
	}
	sec, err := r.Secrets.Read(ctx, site.APITokenVaultPath)
	if err != nil {
		return nil, err
	}
	m, err := r.Connector.Connect(site.APIBaseURL, sec["token"])
	if err != nil {
		return nil, err
	}
	tok, err := m.MachineToken(ctx, ref.SystemID)
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "MAAS has no token for machine %s yet", ref.SystemID)
	}
	rack := r.RackURL
	if rack == "" {
		rack = rackURL(site.APIBaseURL)
	}
	return json.Marshal(reseedPayload{Endpoint: strings.TrimSuffix(rack, "/") + "/metadata/status/" + ref.SystemID,
		ConsumerKey: tok.ConsumerKey, TokenKey: tok.TokenKey, TokenSecret: tok.TokenSecret})
}
