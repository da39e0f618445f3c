package maassim

import "sort"

// queryEvents is GET events/?op=query (api/events.py): newest first;
// with after, the oldest `limit` newer events, reversed.
func (s *Sim) queryEvents(c *call) (any, *apiError) {
	q, aerr := parseEventQuery(c)
	if aerr != nil {
		return nil, aerr
	}
	var picked []event
	if q.hasAfter {
		// Ids increase along s.events: start at the first one above after
		// (MAAS reads an index, not every event).
		from := sort.Search(len(s.events), func(i int) bool { return s.events[i].id > q.after })
		for _, e := range s.events[from:] {
			if q.wants(e, s.machines[e.sid]) {
				picked = append(picked, e)
				if len(picked) == q.limit {
					break
				}
			}
		}
		for i, j := 0, len(picked)-1; i < j; i, j = i+1, j-1 {
			picked[i], picked[j] = picked[j], picked[i]
		}
	} else {
		for i := len(s.events) - 1; i >= 0 && len(picked) < q.limit; i-- {
			e := s.events[i]
			if (!q.hasBefore || e.id < q.before) && q.wants(e, s.machines[e.sid]) {
				picked = append(picked, e)
			}
		}
	}
	out := map[string]any{"count": len(picked), "events": renderEvents(picked)}
	switch {
	case len(picked) > 0:
		out["next_uri"] = pageURI(c, "after", picked[0].id, "before")
		out["prev_uri"] = pageURI(c, "before", picked[len(picked)-1].id, "after")
	case q.hasBefore:
		out["next_uri"] = pageURI(c, "after", q.before-1, "before")
		out["prev_uri"] = nil
	case q.hasAfter:
		out["next_uri"] = pageURI(c, "after", q.after, "before")
		out["prev_uri"] = pageURI(c, "before", q.after+1, "after")
	default:
		out["next_uri"] = pageURI(c, "", 0, "before")
		out["prev_uri"] = nil
	}
	return out, nil
}

func renderEvents(es []event) []jsonEvent {
	out := make([]jsonEvent, 0, len(es))
	for _, e := range es {
		out = append(out, jsonEvent{Username: e.username, Node: e.sid, Hostname: e.hostname, ID: e.id,
			Level: levelName(e.level), Created: eventTime(e.created), Type: e.typ, Description: e.description})
	}
	return out
}
