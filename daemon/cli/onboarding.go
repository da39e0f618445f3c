package cli

import (
	"context"
	"fmt"
	"net/url"
)

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
