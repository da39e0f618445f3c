package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runWatch follows one run (or, for a kind with batches, every run of
// --batch), printing it whenever its state, stage or attempt changes,
// until every run is finished or waits for an operator. It fails (exit
// 7) when any run did not end completed or reconciled. A daemon that
// cannot answer for a while (503, no connection) is waited for, up to
// watchOutage.
func runWatch(k *runKind) command {
	return func(ctx context.Context, s *session, args []string) error {
		var batch string
		var pos []string
		var err error
		if k.batch {
			s.flags().StringVar(&batch, "batch", "", "watch every run of this batch")
			pos, err = s.parse(args, -1)
			if err == nil && ((batch == "") == (len(pos) != 1) || len(pos) > 1) {
				return usagef("give one %s ID or --batch ID", k.Name)
			}
		} else {
			s.flags()
			pos, err = s.parse(args, 1, "ID")
		}
		if err != nil {
			return err
		}
		var last []run
		var down outage
		for {
			runs, raw, err := s.poll(ctx, k, batch, pos)
			if !down.tolerate(s, err) {
				return err
			}
			if err == nil && !reflect.DeepEqual(runs, last) {
				if err := k.progress(s, k, runs, raw); err != nil {
					return err
				}
				last = runs
			}
			if err == nil && settled(runs) {
				return outcome(runs)
			}
			if err := s.env.Sleep(ctx, s.env.Interval); err != nil {
				return err
			}
		}
	}
}

// poll reads the watched runs: the batch's, or the one run's view.
func (s *session) poll(ctx context.Context, k *runKind, batch string, ids []string) ([]run, []byte, error) {
	if batch != "" {
		return s.listRuns(ctx, k, url.Values{"batch_id": {batch}})
	}
	c, err := s.client()
	if err != nil {
		return nil, nil, err
	}
	v, raw, err := c.GetRun(ctx, k.RunKind, ids[0])
	return []run{runOf(v.Run)}, raw, err
}

// batchProgress prints one view of the watched runs (a batch's, or one):
// a table block headed by the count in each state, or one JSON line
// with -o json.
func batchProgress(s *session, k *runKind, runs []run, _ []byte) error {
	if s.output == "json" {
		b, err := json.Marshal(map[string]any{k.Collection: runs, "done": settled(runs)})
		if err != nil {
			return err
		}
		s.printf("%s\n", b)
		return nil
	}
	counts := map[string]int{}
	rows := make([][]string, 0, len(runs))
	for _, r := range runs {
		counts[r.Status]++
		rows = append(rows, k.row(r))
	}
	var parts []string
	for _, st := range []string{"pending", "running", "compensating", "failed_retryable", "failed_manual_intervention", "completed", "reconciled", "cancelled"} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", st, counts[st]))
		}
	}
	s.printf("== %d run(s): %s\n", len(runs), strings.Join(parts, ", "))
	if err := s.show(nil, k.header, rows); err != nil {
		return err
	}
	s.printf("\n")
	return nil
}

// runProgress prints one run's row, or its view as one JSON line.
func runProgress(s *session, k *runKind, runs []run, raw []byte) error {
	if s.output == "json" {
		s.printf("%s\n", compact(raw))
		return nil
	}
	return s.show(nil, k.header, [][]string{k.row(runs[0])})
}

// settled reports whether no run will move without an operator.
func settled(runs []run) bool {
	for _, r := range runs {
		if s := lifecycle.JobState(r.Status); !s.Terminal() && !s.Failed() {
			return false
		}
	}
	return true
}

func outcome(runs []run) error {
	var bad []string
	for _, r := range runs {
		if r.Status != "completed" && r.Status != "reconciled" {
			bad = append(bad, r.Hostname+" "+r.Status)
		}
	}
	if len(bad) > 0 {
		return outcomeError{"not every run completed: " + strings.Join(bad, ", ")}
	}
	return nil
}
