package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// onboardingWatch follows one onboarding or a batch, printing the state,
// stage and attempt of every run whenever they change, until every run is
// finished or waits for an operator. It fails (exit 7) when any run did
// not end completed or reconciled. A daemon that cannot answer for a while
// (503, no connection) is waited for, up to watchOutage.
func onboardingWatch(ctx context.Context, s *session, args []string) error {
	batch := s.flags().String("batch", "", "watch every run of this batch")
	pos, err := s.parse(args, -1)
	if err != nil {
		return err
	}
	if (*batch == "") == (len(pos) != 1) || len(pos) > 1 {
		return usagef("give one onboarding ID or --batch ID")
	}
	var last []run
	var down outage
	for {
		runs, err := s.poll(ctx, *batch, pos)
		if !down.tolerate(s, err) {
			return err
		}
		if err != nil {
			if err := s.env.Sleep(ctx, s.env.Interval); err != nil {
				return err
			}
			continue
		}
		if !reflect.DeepEqual(runs, last) {
			if err := s.progress(runs); err != nil {
				return err
			}
			last = runs
		}
		if settled(runs) {
			return outcome(runs)
		}
		if err := s.env.Sleep(ctx, s.env.Interval); err != nil {
			return err
		}
	}
}

func (s *session) poll(ctx context.Context, batch string, ids []string) ([]run, error) {
	if batch != "" {
		runs, _, err := s.listRuns(ctx, batch, "", "")
		return runs, err
	}
	var out struct{ Onboarding run }
	_, err := s.call(ctx, http.MethodGet, admin+"/onboardings/"+ids[0], nil, &out, nil)
	return []run{out.Onboarding}, err
}

// progress prints one view: a table block, or one JSON line with -o json.
func (s *session) progress(runs []run) error {
	if s.output == "json" {
		b, err := json.Marshal(map[string]any{"onboardings": runs, "done": settled(runs)})
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
		rows = append(rows, r.row())
	}
	var parts []string
	for _, st := range []string{"pending", "running", "compensating", "failed_retryable", "failed_manual_intervention", "completed", "reconciled", "cancelled"} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", st, counts[st]))
		}
	}
	s.printf("== %d run(s): %s\n", len(runs), strings.Join(parts, ", "))
	if err := s.show(nil, runHeader, rows); err != nil {
		return err
	}
	s.printf("\n")
	return nil
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
