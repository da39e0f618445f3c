package workflow

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ReseedPayloads completes node.hw_sync_reseed payloads at dispatch (an
// agent API payload resolver): the stored payload names the site and
// machine; the machine's MAAS token is read from MAAS now (with the
// site's API key read from Vault now) and goes only to the agent, over
// mutual TLS.
type ReseedPayloads struct {
	Deps    Deps
	RackURL string // "" derives it from the site's MAAS URL (lifecycle.RackURL)
}

// Resolve returns t's payload, completed for hw_sync_reseed tasks.
// Errors: invalid for a payload naming no machine, forbidden for one
// naming a machine (or site) that is not the claiming node's own (no
// token is read: the agent API fails the task), unavailable while MAAS
// has no token for the machine, and the store's, Vault's and MAAS's.
func (r ReseedPayloads) Resolve(ctx context.Context, t lifecycle.AgentTask) ([]byte, error) {
	const op = "workflow.ReseedPayloads"
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
	if err := r.ownMachine(ctx, t, ref.SiteID, ref.SystemID); err != nil {
		return nil, err
	}
	site, err := r.Deps.Store.GetSite(ctx, ref.SiteID)
	if err != nil {
		return nil, err
	}
	key, err := r.Deps.Secrets.MAASToken(ctx, site.APITokenVaultPath)
	if err != nil {
		return nil, err
	}
	m, err := r.Deps.Connector.Connect(site.APIBaseURL, key)
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
		rack = lifecycle.RackURL(site.APIBaseURL)
	}
	return json.Marshal(wire.HWSyncReseed{Endpoint: strings.TrimSuffix(rack, "/") + "/metadata/status/" + ref.SystemID,
		MAASCredentials: wire.MAASCredentials{ConsumerKey: tok.ConsumerKey, TokenKey: tok.TokenKey,
			TokenSecret: tok.TokenSecret.Reveal()}})
}

// ownMachine checks that machine systemID of site siteID is the one the
// store binds to t's node, the node whose agent claimed t: a task naming
// another node's machine never fetches that machine's token.
func (r ReseedPayloads) ownMachine(ctx context.Context, t lifecycle.AgentTask, siteID, systemID string) error {
	n, err := r.Deps.Store.GetNode(ctx, t.NodeID)
	if err != nil {
		return err
	}
	if n.MaasSystemID == "" || n.MaasSystemID != systemID || n.SiteID != siteID {
		return lifecycle.Errorf(lifecycle.CodeForbidden, "workflow.ReseedPayloads",
			"task %s names machine %s of site %s, which is not node %s's machine (%q of site %s)",
			t.ID, systemID, siteID, n.ID, n.MaasSystemID, n.SiteID)
	}
	return nil
}
