package maas

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// EventsAfter returns up to limit node events with an id above after,
// oldest first, at level DEBUG and up so that "Node changed status"
// events come too (MAAS answers newest first).
func (c *Client) EventsAfter(ctx context.Context, after int64, limit int) ([]lifecycle.MaasEvent, error) {
	a := int(after)
	evs, err := c.Events(ctx, EventQuery{After: &a, Level: "DEBUG", Limit: limit})
	slices.SortFunc(evs, func(x, y lifecycle.MaasEvent) int { return cmp.Compare(x.ID, y.ID) })
	return evs, err
}

// NewestEventID is the id of MAAS's newest node event (0 when none).
func (c *Client) NewestEventID(ctx context.Context) (int64, error) {
	evs, err := c.Events(ctx, EventQuery{Level: "DEBUG", Limit: 1})
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	return evs[0].ID, nil
}

// EventTexts returns the type and text of a machine's newest events,
// newest first.
func (c *Client) EventTexts(ctx context.Context, systemID string, limit int) ([]string, error) {
	evs, err := c.Events(ctx, EventQuery{Level: "DEBUG", Limit: limit, SystemIDs: []string{systemID}})
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, strings.TrimSpace(e.Type+" - "+e.Description))
	}
	return out, err
}
