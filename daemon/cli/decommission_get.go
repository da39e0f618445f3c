package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
)

// decomView is GET /decommissions/{id} as the CLI reads it; the evidence
// is shown with -o json.
type decomView struct {
	Decommission decomRun
	Events       []runEvent
	Tasks        []struct {
		ID, Type, State, Message string
		Success                  *bool
	}
}

func (s *session) getDecommission(ctx context.Context, id string) (decomView, []byte, error) {
	var v decomView
	raw, err := s.call(ctx, http.MethodGet, admin+"/decommissions/"+url.PathEscape(id), nil, &v, nil)
	return v, raw, err
}

func decommissionGet(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	v, raw, err := s.getDecommission(ctx, pos[0])
	if err != nil {
		return err
	}
	rows := append([][]string{v.Decommission.row(), {}}, eventRows(v.Events)...)
	if len(v.Tasks) > 0 {
		rows = append(rows, []string{}, []string{"TASK", "TYPE", "STATE", "SUCCESS", "MESSAGE"})
	}
	for _, t := range v.Tasks {
		ok := "-"
		if t.Success != nil {
			ok = yesNo(*t.Success)
		}
		rows = append(rows, []string{t.ID, t.Type, t.State, ok, dash(t.Message)})
	}
	return s.show(raw, decomHeader, rows)
}

// decommissionWatch follows one decommission, printing it whenever it
// changes, until it is finished or waits for an operator; it fails (exit
// 7) unless it ended completed or reconciled. A daemon that cannot answer
// for a while is waited for, as by onboarding watch.
func decommissionWatch(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	var last decomRun
	var down outage
	for {
		v, raw, err := s.getDecommission(ctx, pos[0])
		if !down.tolerate(s, err) {
			return err
		}
		if err != nil {
			if err := s.env.Sleep(ctx, s.env.Interval); err != nil {
				return err
			}
			continue
		}
		r := v.Decommission
		done := settled([]run{{Status: r.Status}})
		if !reflect.DeepEqual(r, last) {
			if s.output == "json" {
				s.printf("%s\n", compact(raw))
			} else if err := s.show(nil, decomHeader, [][]string{r.row()}); err != nil {
				return err
			}
			last = r
		}
		if done {
			return outcome([]run{{Hostname: r.Hostname, Status: r.Status}})
		}
		if err := s.env.Sleep(ctx, s.env.Interval); err != nil {
			return err
		}
	}
}

// decomRecoveryCommand is a recovery verb on a decommission:
// maas-sidecar decommission rerun ID --reason ...
func decomRecoveryCommand(path string) command {
	return func(ctx context.Context, s *session, args []string) error {
		s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
		pos, err := s.parse(args, 1, "ID")
		if err != nil {
			return err
		}
		if s.reason == "" {
			return usagef("--reason is required")
		}
		var out struct {
			Decommission decomRun
			NoOp         bool `json:"no_op"`
		}
		raw, err := s.call(ctx, http.MethodPost, admin+"/decommissions/"+url.PathEscape(pos[0])+"/"+path,
			map[string]string{"reason": s.reason}, &out, nil)
		if err != nil {
			return err
		}
		return s.show(raw, decomHeader+" NO_OP", [][]string{append(out.Decommission.row(), yesNo(out.NoOp))})
	}
}

// compact is raw JSON on one line (raw itself when it does not parse).
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
