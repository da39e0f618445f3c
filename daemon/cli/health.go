package cli

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeHealth prints a node's health verdict, each check, and its newest
// history: `node health NODE`.
func nodeHealth(ctx context.Context, s *session, args []string) error {
	id, err := s.oneNode(ctx, args)
	if err != nil {
		return err
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	v, raw, err := c.NodeHealth(ctx, id)
	if err != nil {
		return err
	}
	h := v.Health
	rows := [][]string{{"node", string(h.Verdict), string(h.Action), dash(h.Reason)}}
	for _, ch := range h.Checks {
		rows = append(rows, []string{ch.Name, string(ch.Verdict), string(ch.Action), dash(ch.Reason)})
	}
	for _, e := range v.History {
		what := string(e.Verdict)
		if e.Fault != nil {
			what = "fault " + e.Fault.Kind + " by " + e.Fault.Reporter
		}
		rows = append(rows, []string{"history " + e.At.Format("2006-01-02T15:04:05Z"), what, dash(string(e.Action)), dash(e.Decision)})
	}
	return s.show(raw, "CHECK VERDICT ACTION REASON", rows)
}

// nodeFault reports a fault on a node for the GPU cloud: `node fault
// NODE --kind KIND --reporter WHO [--text ...] [--idempotency-key K]`.
func nodeFault(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	kind := fs.String("kind", "", "performance, silent_data_corruption, unrecoverable_gpu_error or other (required)")
	reporter := fs.String("reporter", "", "who reports it (required)")
	text := fs.String("text", "", "what was seen")
	key := fs.String("idempotency-key", "", "makes a retry answer the first result")
	ref := s.nodeRef()
	pos, err := s.parse(args, 1, "NODE")
	if err != nil {
		return err
	}
	if err := oneOf("kind", *kind, lifecycle.FaultKinds, false); err != nil {
		return err
	}
	if strings.TrimSpace(*reporter) == "" {
		return usagef("--reporter is required")
	}
	id, err := ref(ctx, pos[0])
	if err != nil {
		return err
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	out, raw, err := c.ReportFault(ctx, id, answer.FaultRequest{Kind: *kind, Reporter: *reporter, Text: *text, IdempotencyKey: *key})
	if err != nil {
		return err
	}
	return s.show(raw, "NODE FAULT STATE DECISION", [][]string{{id, out.Entry.ID, string(out.NodeStatus), dash(out.Entry.Decision)}})
}
