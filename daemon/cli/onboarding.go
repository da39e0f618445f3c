package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// run is an onboarding as the CLI shows it.
type run struct {
	ID             string
	Hostname       string
	Status         string
	CurrentStage   string `json:"current_stage"`
	CurrentAttempt int    `json:"current_attempt"`
	FailureClass   string `json:"failure_class"`
	Recommended    string `json:"recommended_action"`
	ErrorMessage   string `json:"error_message"`
}

const runHeader = "ONBOARDING HOSTNAME STATE STAGE ATTEMPT FAILURE NEXT"

func (r run) row() []string {
	return []string{r.ID, r.Hostname, r.Status, dash(r.CurrentStage), fmt.Sprint(r.CurrentAttempt), dash(r.FailureClass), dash(r.Recommended)}
}

func onboardingGet(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	var out struct {
		Onboarding run
		Events     []runEvent
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/onboardings/"+pos[0], nil, &out, nil)
	if err != nil {
		return err
	}
	rows := append([][]string{out.Onboarding.row(), {}}, eventRows(out.Events)...)
	return s.show(raw, runHeader, rows)
}

func onboardingList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	batch := fs.String("batch", "", "batch id")
	site := fs.String("site", "", "site id")
	status := fs.String("status", "", "comma-separated job states")
	fs.IntVar(&s.limit, "limit", 0, "page size asked of the API (1-1000); every page is read and shown")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	runs, raw, err := s.listRuns(ctx, *batch, *site, *status)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, r := range runs {
		rows = append(rows, r.row())
	}
	return s.show(raw, runHeader, rows)
}

func (s *session) listRuns(ctx context.Context, batch, site, status string) ([]run, []byte, error) {
	q := url.Values{}
	for k, v := range map[string]string{"batch_id": batch, "site_id": site, "status": status} {
		if v != "" {
			q.Set(k, v)
		}
	}
	items, raw, err := s.listAll(ctx, admin+"/onboardings", q, "onboardings", s.limit)
	if err != nil {
		return nil, nil, err
	}
	runs, err := decodeAll[run](items)
	return runs, raw, err
}

// recoveryVerbs are the recovery routes of seed 001 §4.15; each is also
// the CLI verb (maas-sidecar onboarding rerun ID --reason ...).
var recoveryVerbs = []string{"retry", "resume", "rerun", "restart-clean", "cancel", "adopt", "mark-manual-intervention"}

func recoveryCommand(path string) command {
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
			Onboarding run
			NoOp       bool `json:"no_op"`
		}
		raw, err := s.call(ctx, http.MethodPost, admin+"/onboardings/"+pos[0]+"/"+path, map[string]string{"reason": s.reason}, &out, nil)
		if err != nil {
			return err
		}
		return s.show(raw, runHeader+" NO_OP", [][]string{append(out.Onboarding.row(), yesNo(out.NoOp))})
	}
}

// batchRow is a batch of GET /batches as the CLI shows it.
type batchRow struct {
	ID          string
	SiteID      string `json:"site_id"`
	SKU         string
	RequestedBy string `json:"requested_by"`
	RequestedAt string `json:"requested_at"`
	Summary     struct {
		Total  int
		Status string
		Counts map[string]int
	}
}

// onboardingBatches lists the batches (every page), each with its
// aggregate status and run count.
func onboardingBatches(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site id")
	limit := limitFlag(fs)
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	q := url.Values{}
	if *site != "" {
		q.Set("site_id", *site)
	}
	items, raw, err := s.listAll(ctx, admin+"/batches", q, "batches", *limit)
	if err != nil {
		return err
	}
	bs, err := decodeAll[batchRow](items)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, b := range bs {
		rows = append(rows, []string{b.ID, b.SiteID, dash(b.SKU), b.Summary.Status, fmt.Sprint(b.Summary.Total), dash(b.RequestedBy), b.RequestedAt})
	}
	return s.show(raw, "BATCH SITE SKU STATE RUNS BY REQUESTED", rows)
}
