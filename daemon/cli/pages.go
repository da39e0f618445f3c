package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
)

// limitFlag adds --limit, the page size of a list route (1-1000; the
// route's default when 0). List commands follow next_cursor to the end,
// in table and json output alike, so the output holds every match.
func limitFlag(fs *flag.FlagSet) *int {
	return fs.Int("limit", 0, "page size asked of the API (1-1000); every page is read and shown")
}

// listAll GETs path?q page by page (limit per page; the route's default
// when 0) and returns the items under key from every page, and one JSON
// answer holding them all with the first page's other fields.
func (s *session) listAll(ctx context.Context, path string, q url.Values, key string, limit int) ([]json.RawMessage, []byte, error) {
	if limit < 0 || limit > 1000 {
		return nil, nil, usagef("--limit %d is not from 1 to 1000", limit)
	}
	if limit > 0 {
		q.Set("limit", fmt.Sprint(limit))
	}
	items, rest := []json.RawMessage{}, map[string]json.RawMessage{}
	for {
		var page map[string]json.RawMessage
		if _, err := s.call(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &page, nil); err != nil {
			return nil, nil, err
		}
		var got []json.RawMessage
		if err := json.Unmarshal(page[key], &got); err != nil {
			return nil, nil, fmt.Errorf("%s: %s is not a list: %w", path, key, err)
		}
		items = append(items, got...)
		for k, v := range page {
			if _, seen := rest[k]; !seen && k != key && k != "next_cursor" {
				rest[k] = v // the first page's other fields (a batch's aggregate)
			}
		}
		var next string
		if raw, ok := page["next_cursor"]; ok {
			if err := json.Unmarshal(raw, &next); err != nil {
				return nil, nil, fmt.Errorf("%s: next_cursor: %w", path, err)
			}
		}
		if next == "" {
			all, err := json.Marshal(withItems(rest, key, items))
			return items, all, err
		}
		q.Set("cursor", next)
	}
}

func withItems(rest map[string]json.RawMessage, key string, items []json.RawMessage) map[string]any {
	out := map[string]any{key: items}
	for k, v := range rest {
		out[k] = v
	}
	return out
}

// decodeAll decodes every item into T.
func decodeAll[T any](items []json.RawMessage) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, raw := range items {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
