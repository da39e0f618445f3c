package cli

import (
	"context"
	"flag"
	"net/http"
	"time"
)

func init() {
	commands["node create"] = nodeCreate
	commands["node bootstrap"] = nodeBootstrap
}

// bootstrapTicket is the answer of POST /nodes and /nodes/{id}/bootstrap.
type bootstrapTicket struct {
	NodeID       string `json:"node_id"`
	Hostname     string `json:"hostname"`
	Status       string `json:"status"`
	OnboardingID string `json:"onboarding_id"`
	ExpiresAt    string `json:"expires_at"`
	Command      string `json:"command"`
}

// ttlFlag adds --ttl: the bootstrap ticket's life (default: the shorter
// of the site's enrollment_token_ttl_seconds and enrollment_timeout_seconds).
func ttlFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("ttl", 0, "how long the bootstrap ticket may be used, at least 30s (default: the shorter of the site's enrollment_token_ttl_seconds and enrollment_timeout_seconds)")
}

// nodeCreate creates a node in manual mode for a host MAAS does not
// deploy and prints the one-time bootstrap command to run on it.
func nodeCreate(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site id (required)")
	host := fs.String("hostname", "", "the host's name, one DNS label (required)")
	sku := fs.String("sku", "", "SKU id such as mi300x.192g.8gpu (required)")
	ttl := ttlFlag(fs)
	fs.StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if *site == "" || *host == "" || *sku == "" || s.reason == "" {
		return usagef("--site, --hostname, --sku and --reason are required")
	}
	body := map[string]any{"site_id": *site, "hostname": *host, "sku": *sku, "reason": s.reason}
	return s.showTicket(ctx, admin+"/nodes", body, *ttl)
}

// nodeBootstrap issues a new bootstrap ticket for a manual node whose
// agent has not enrolled; the previous one stops working.
func nodeBootstrap(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	ttl := ttlFlag(fs)
	ref := s.nodeRef()
	fs.StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	id, err := s.auditedNode(ctx, args, ref)
	if err != nil {
		return err
	}
	return s.showTicket(ctx, admin+"/nodes/"+id+"/bootstrap", map[string]any{"reason": s.reason}, *ttl)
}

// showTicket posts body (with the ticket's life) and prints the ticket:
// the node, its onboarding, the expiry and the command, shown once.
func (s *session) showTicket(ctx context.Context, path string, body map[string]any, ttl time.Duration) error {
	if ttl != 0 {
		if ttl < 30*time.Second || ttl%time.Second != 0 {
			return usagef("--ttl %s must be whole seconds, at least 30s", ttl)
		}
		body["ticket_ttl_seconds"] = int(ttl / time.Second)
	}
	var t bootstrapTicket
	raw, err := s.call(ctx, http.MethodPost, path, body, &t, nil)
	if err != nil {
		return err
	}
	if err := s.show(raw, "NODE HOSTNAME STATE ONBOARDING EXPIRES",
		[][]string{{t.NodeID, t.Hostname, t.Status, t.OnboardingID, t.ExpiresAt}}); err != nil {
		return err
	}
	if s.output == "table" {
		s.printf("\nrun this once on the host, as a user who may sudo, before %s (shown only now):\n\n%s\n", t.ExpiresAt, t.Command)
	}
	return nil
}
