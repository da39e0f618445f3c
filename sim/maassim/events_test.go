package maassim_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type eventsPage struct {
	Count  int `json:"count"`
	Events []struct {
		ID    int    `json:"id"`
		Level string `json:"level"`
		Type  string `json:"type"`
	} `json:"events"`
	NextURI string  `json:"next_uri"`
	PrevURI *string `json:"prev_uri"`
}

func (s *site) events(t *testing.T, q url.Values) (eventsPage, int, string) {
	t.Helper()
	q.Set("op", "query")
	r := s.call(t, "GET", "/MAAS/api/2.0/events/", q)
	var p eventsPage
	if r.code == 200 {
		if err := json.Unmarshal([]byte(r.body), &p); err != nil {
			t.Fatal(err)
		}
	}
	return p, r.code, r.body
}

func ids(p eventsPage) []int {
	out := []int{}
	for _, e := range p.Events {
		out = append(out, e.ID)
	}
	return out
}

func TestEventsOrderingAndPaging(t *testing.T) {
	st := newSite(t, 2)
	for _, sid := range st.ids(t) {
		mustPost(t, st, "/MAAS/api/2.0/machines/"+sid+"/?op=deploy", nil)
	}
	all, _, _ := st.events(t, url.Values{"level": {"DEBUG"}, "limit": {"1000"}})
	if all.Count < 6 {
		t.Fatalf("only %d events", all.Count)
	}
	for i := 1; i < len(all.Events); i++ {
		if all.Events[i].ID >= all.Events[i-1].ID {
			t.Fatalf("not newest first: %v", ids(all))
		}
	}
	oldest := all.Events[len(all.Events)-1].ID
	t.Run("after gives the oldest newer events, reversed", func(t *testing.T) {
		p, _, _ := st.events(t, url.Values{"level": {"DEBUG"}, "after": {"0"}, "limit": {"3"}})
		want := []int{oldest + 2, oldest + 1, oldest}
		if d := cmp.Diff(want, ids(p)); d != "" {
			t.Fatalf("ids (-want +got):\n%s", d)
		}
		next, _ := url.Parse(p.NextURI)
		if next.Query().Get("after") != "3" || next.Query().Get("limit") != "3" {
			t.Fatalf("next_uri %s", p.NextURI)
		}
	})
	t.Run("before pages backwards", func(t *testing.T) {
		p, _, _ := st.events(t, url.Values{"level": {"DEBUG"}, "before": {"3"}})
		if d := cmp.Diff([]int{2, 1}, ids(p)); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("default level INFO excludes status changes", func(t *testing.T) {
		p, _, _ := st.events(t, url.Values{})
		for _, e := range p.Events {
			if e.Level == "DEBUG" {
				t.Fatalf("DEBUG event at INFO: %+v", e)
			}
		}
	})
	t.Run("empty page at the end", func(t *testing.T) {
		p, _, _ := st.events(t, url.Values{"level": {"DEBUG"}, "after": {"100000"}})
		if p.Count != 0 || p.PrevURI == nil {
			t.Fatalf("%+v", p)
		}
	})
	bad := []struct {
		q    url.Values
		body string
	}{
		{url.Values{"limit": {"1001"}}, "Requested number of events 1001 is greater than limit: 1000"},
		{url.Values{"level": {"LOUD"}}, "Unrecognised log level: LOUD"},
		{url.Values{"after": {"1"}, "before": {"5"}}, "There is undetermined behaviour when both `after` and `before` are specified."},
	}
	for _, b := range bad {
		if _, code, body := st.events(t, b.q); code != 400 || body != b.body {
			t.Errorf("%v: %d %q", b.q, code, body)
		}
	}
}
