package cli

import (
	"context"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runGet shows one run: its row, its journal and, for a kind whose
// agent returns evidence, its agent tasks (the evidence with -o json).
func runGet(k *runKind) command {
	return func(ctx context.Context, s *session, args []string) error {
		s.flags()
		pos, err := s.parse(args, 1, "ID")
		if err != nil {
			return err
		}
		c, err := s.client()
		if err != nil {
			return err
		}
		v, raw, err := c.GetRun(ctx, k.RunKind, pos[0])
		if err != nil {
			return err
		}
		rows := append([][]string{k.row(runOf(v.Run)), {}}, eventRows(v.Events)...)
		if len(v.Tasks) > 0 {
			rows = append(rows, []string{}, []string{"TASK", "TYPE", "STATE", "SUCCESS", "MESSAGE"})
		}
		for _, t := range v.Tasks {
			ok := "-"
			if t.Success != nil {
				ok = yesNo(*t.Success)
			}
			rows = append(rows, []string{t.ID, string(t.Type), string(t.State), ok, dash(t.Message)})
		}
		return s.show(raw, k.header, rows)
	}
}

// runList lists the runs of a kind matching its filters, every page.
func runList(k *runKind) command {
	return func(ctx context.Context, s *session, args []string) error {
		fs := s.flags()
		vals := make([]*string, len(k.filters))
		for i, f := range k.filters {
			vals[i] = fs.String(f.flag, "", f.usage)
		}
		fs.IntVar(&s.limit, "limit", 0, "page size asked of the API (1-1000); every page is read and shown")
		if _, err := s.parse(args, 0); err != nil {
			return err
		}
		q := url.Values{}
		for i, f := range k.filters {
			if f.choices != nil {
				if err := oneOf(f.flag, *vals[i], f.choices, true); err != nil {
					return err
				}
			}
			if *vals[i] != "" {
				q.Set(f.param, *vals[i])
			}
		}
		runs, raw, err := s.listRuns(ctx, k, q)
		if err != nil {
			return err
		}
		rows := [][]string{}
		for _, r := range runs {
			rows = append(rows, k.row(r))
		}
		return s.show(raw, k.header, rows)
	}
}

// listRuns reads every page of the runs of kind k matching q.
func (s *session) listRuns(ctx context.Context, k *runKind, q url.Values) ([]run, []byte, error) {
	items, raw, err := s.listAll(ctx, adminclient.RunPath(k.RunKind, ""), q, k.Collection, s.limit)
	if err != nil {
		return nil, nil, err
	}
	rs, err := decodeAll[lifecycle.Run](items)
	return runsOf(rs), raw, err
}

// runRecover is recovery action path on a run of kind k:
// maas-sidecar KIND PATH ID --reason R.
func runRecover(k *runKind, path string) command {
	return func(ctx context.Context, s *session, args []string) error {
		s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
		pos, err := s.parse(args, 1, "ID")
		if err != nil {
			return err
		}
		if s.reason == "" {
			return usagef("--reason is required")
		}
		c, err := s.client()
		if err != nil {
			return err
		}
		out, raw, err := c.Recover(ctx, k.RunKind, pos[0], path, s.reason)
		if err != nil {
			return err
		}
		return s.show(raw, k.header+" NO_OP", [][]string{append(k.row(runOf(out.Run)), yesNo(out.NoOp))})
	}
}
