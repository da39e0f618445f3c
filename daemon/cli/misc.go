package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

func nodeList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site id")
	status := fs.String("status", "", "node state")
	limit := limitFlag(fs)
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	q := url.Values{}
	if *site != "" {
		q.Set("site_id", *site)
	}
	if *status != "" {
		q.Set("status", *status)
	}
	items, raw, err := s.listAll(ctx, admin+"/nodes", q, "nodes", *limit)
	if err != nil {
		return err
	}
	nodes, err := decodeAll[nodeRecord](items)
	if err != nil {
		return err
	}
	// Pages come in id order; a table reads best by hostname.
	slices.SortStableFunc(nodes, func(a, b nodeRecord) int { return strings.Compare(a.Hostname, b.Hostname) })
	rows := [][]string{}
	for _, n := range nodes {
		rows = append(rows, append([]string{n.ID, n.Hostname, n.Status}, n.fields()...))
	}
	return s.show(raw, "NODE HOSTNAME STATE SKU GPUS REGION PORT", rows)
}

func nodeGet(ctx context.Context, s *session, args []string) error {
	id, err := s.oneNode(ctx, args)
	if err != nil {
		return err
	}
	var out struct {
		Node    nodeRecord
		Current *run `json:"current_run"`
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/nodes/"+url.PathEscape(id), nil, &out, nil)
	if err != nil {
		return err
	}
	c := run{}
	if out.Current != nil {
		c = *out.Current
	}
	return s.kv(raw, "node", out.Node.ID, "hostname", out.Node.Hostname, "state", out.Node.Status,
		"sku", out.Node.SKU, "gpus_total", fmt.Sprint(out.Node.GPUs), "region", out.Node.Region, "port", fmt.Sprint(out.Node.Port),
		"workflow_state", c.Status, "stage", c.CurrentStage, "attempt", fmt.Sprint(c.CurrentAttempt),
		"failure_class", c.FailureClass, "recommended_action", c.Recommended)
}

type token struct {
	ID, Name, Role, Token string
	CreatedAt             string `json:"created_at"`
	RevokedAt             string `json:"revoked_at"`
}

func (t token) row() []string { return []string{t.ID, t.Name, t.Role, t.CreatedAt, dash(t.RevokedAt)} }

const tokenHeader = "ID NAME ROLE CREATED REVOKED"

func tokenCreate(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	name := fs.String("name", "", "token name (required)")
	role := fs.String("role", "", "admin, operator or viewer (required)")
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	var t token
	raw, err := s.call(ctx, http.MethodPost, admin+"/tokens", map[string]string{"name": *name, "role": *role}, &t, nil)
	if err != nil {
		return err
	}
	if err := s.show(raw, tokenHeader, [][]string{t.row()}); err != nil {
		return err
	}
	if s.output == "table" {
		s.printf("\ntoken (shown once, store it now): %s\n", t.Token)
	}
	return nil
}

func tokenList(ctx context.Context, s *session, args []string) error {
	limit := limitFlag(s.flags())
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	items, raw, err := s.listAll(ctx, admin+"/tokens", url.Values{}, "tokens", *limit)
	if err != nil {
		return err
	}
	tokens, err := decodeAll[token](items)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, t := range tokens {
		rows = append(rows, t.row())
	}
	return s.show(raw, tokenHeader, rows)
}

func tokenRevoke(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	var t token
	raw, err := s.call(ctx, http.MethodDelete, admin+"/tokens/"+pos[0], nil, &t, nil)
	if err != nil {
		return err
	}
	return s.show(raw, tokenHeader, [][]string{t.row()})
}

func auditList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	q := map[string]*string{}
	for _, k := range []string{"target_kind", "target_id", "actor", "action", "after_seq", "limit"} {
		q[k] = fs.String(strings.ReplaceAll(k, "_", "-"), "", "filter: "+k)
	}
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	v := url.Values{}
	for k, p := range q {
		if *p != "" {
			v.Set(k, *p)
		}
	}
	var out struct {
		Entries []struct {
			Seq                             int
			At, Actor, Role, Action, Reason string
			TargetKind                      string `json:"target_kind"`
			TargetID                        string `json:"target_id"`
		}
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/audit?"+v.Encode(), nil, &out, nil)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, e := range out.Entries {
		rows = append(rows, []string{fmt.Sprint(e.Seq), e.At, e.Actor, e.Action, e.TargetKind + "/" + e.TargetID, dash(e.Reason)})
	}
	return s.show(raw, "SEQ AT ACTOR ACTION TARGET REASON", rows)
}

// nodeActivate returns a quarantined node to service (MAAS must show its
// machine Deployed); --reason is required and audited.
func nodeActivate(ctx context.Context, s *session, args []string) error {
	out, raw, err := nodeAction(ctx, s, args, "activate")
	if err != nil {
		return err
	}
	return s.show(raw, "NODE HOSTNAME STATE", [][]string{{out.ID, out.Hostname, out.Status}})
}

// nodeView is the part of a node a node action prints.
type nodeView struct{ ID, Hostname, Status string }

// nodeAction posts {"reason"} to /nodes/ID/action, with the NODE argument
// (an id or a hostname)
// and the required --reason flag every audited node action takes.
func nodeAction(ctx context.Context, s *session, args []string, action string) (nodeView, []byte, error) {
	s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	ref := s.nodeRef()
	var out nodeView
	id, err := s.auditedNode(ctx, args, ref)
	if err != nil {
		return out, nil, err
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+id+"/"+action, map[string]string{"reason": s.reason}, &out, nil)
	return out, raw, err
}
