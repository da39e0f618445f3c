package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

func init() {
	commands["reconcile status"] = reconcileStatus
	commands["reconcile drift"] = reconcileDrift
	commands["reconcile resolve"] = reconcileResolve
	commands["reconcile run"] = reconcileRun
}

// reconcileStatus: per site, nodes bound to MAAS, in agreement, drifted,
// never reconciled, and the last reconciliation.
func reconcileStatus(ctx context.Context, s *session, args []string) error {
	site := s.flags().String("site", "", "only this site `id`")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	var out struct {
		Sites []struct {
			SiteID                           string `json:"site_id"`
			Nodes, OK, Drifted, Unreconciled int
			LastReconciledAt                 string `json:"last_reconciled_at"`
		}
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/reconciliation/status?"+siteQuery(*site), nil, &out, nil)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, l := range out.Sites {
		rows = append(rows, []string{l.SiteID, fmt.Sprint(l.Nodes), fmt.Sprint(l.OK), fmt.Sprint(l.Drifted),
			fmt.Sprint(l.Unreconciled), dash(l.LastReconciledAt)})
	}
	return s.show(raw, "SITE NODES OK DRIFTED UNRECONCILED LAST_RECONCILED", rows)
}

// reconcileDrift lists the nodes with open drift.
func reconcileDrift(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "only this site `id`")
	limit := limitFlag(fs)
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	q, err := url.ParseQuery(siteQuery(*site))
	if err != nil {
		return err
	}
	items, raw, err := s.listAll(ctx, admin+"/reconciliation/drift", q, "drift", *limit)
	if err != nil {
		return err
	}
	drift, err := decodeAll[struct {
		NodeID     string `json:"node_id"`
		SiteID     string `json:"site_id"`
		SystemID   string `json:"maas_system_id"`
		Rule       string `json:"drift_rule"`
		Severity   string `json:"drift_severity"`
		DetectedAt string `json:"drift_detected_at"`
	}](items)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, d := range drift {
		rows = append(rows, []string{d.NodeID, d.SiteID, d.SystemID, d.Rule, d.Severity, dash(d.DetectedAt)})
	}
	return s.show(raw, "NODE SITE SYSTEM_ID RULE SEVERITY DETECTED", rows)
}

// reconcileResolve acknowledges a node's drift after acting on it; it
// changes no node state (node activate does). NODE is an id or hostname.
func reconcileResolve(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "what was done (required; recorded in the audit log)")
	ref := s.nodeRef()
	id, err := s.auditedNode(ctx, args, ref)
	if err != nil {
		return err
	}
	var out struct {
		NodeID     string `json:"node_id"`
		ResolvedAt string `json:"drift_resolved_at"`
		ResolvedBy string `json:"drift_resolved_by"`
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/reconciliation/drift/"+id+"/resolve", nil, &out, nil)
	if err != nil {
		return err
	}
	return s.show(raw, "NODE RESOLVED_AT RESOLVED_BY", [][]string{{out.NodeID, out.ResolvedAt, out.ResolvedBy}})
}

// reconcileRun resyncs one site against MAAS now.
func reconcileRun(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site `id` (required)")
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if *site == "" {
		return usagef("--site is required")
	}
	var out struct {
		SiteID string `json:"site_id"`
		Report struct {
			Nodes, Drifted int
			Owned          int `json:"owned_by_runs"`
			Unmanaged      int `json:"unmanaged_machines"`
		}
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/reconciliation/run", map[string]string{"site_id": *site}, &out, nil)
	if err != nil {
		return err
	}
	r := out.Report
	return s.show(raw, "SITE NODES DRIFTED OWNED_BY_RUNS UNMANAGED", [][]string{{out.SiteID,
		fmt.Sprint(r.Nodes), fmt.Sprint(r.Drifted), fmt.Sprint(r.Owned), fmt.Sprint(r.Unmanaged)}})
}

// siteQuery is site_id=SITE, or nothing for every site.
func siteQuery(site string) string {
	if site == "" {
		return ""
	}
	return url.Values{"site_id": {site}}.Encode()
}
