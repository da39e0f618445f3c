//go:build integration

package grafana

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// promAPI is Prometheus' HTTP API.
type promAPI struct{ base string }

// get decodes the data of a successful API answer into data; any other
// answer is an error carrying Prometheus' message.
func (a promAPI) get(path string, params url.Values, data any) error {
	resp, err := http.Get(a.base + path + "?" + params.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var body struct {
		Status, ErrorType, Error string
		Data                     json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("%s: %s: %w", path, resp.Status, err)
	}
	if body.Status != "success" {
		return fmt.Errorf("%s: %s: %s", body.Status, body.ErrorType, body.Error)
	}
	return json.Unmarshal(body.Data, data)
}

type ruleGroup struct {
	Name           string    `json:"name"`
	File           string    `json:"file"`
	LastEvaluation time.Time `json:"lastEvaluation"`
	Rules          []struct {
		Name      string `json:"name"`
		Health    string `json:"health"`
		LastError string `json:"lastError"`
	} `json:"rules"`
}

// checkRules waits until every rule group has been evaluated twice over
// (the last evaluation after the first one seen) and every rule of
// alerts.yml is loaded and healthy.
func checkRules(t *testing.T, a promAPI, within time.Duration) {
	t.Helper()
	want := alertNames(t)
	var groups []ruleGroup
	var first time.Time
	deadline := time.Now().Add(within)
	for {
		var data struct{ Groups []ruleGroup }
		if err := a.get("/api/v1/rules", nil, &data); err != nil {
			t.Fatalf("rules: %v", err)
		}
		groups = data.Groups
		if evaluatedAfter(groups, first) {
			if !first.IsZero() {
				break
			}
			first = time.Now()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rule groups were not evaluated twice within %s: %+v", within, groups)
		}
		time.Sleep(500 * time.Millisecond)
	}
	var loaded []string
	for _, g := range groups {
		for _, r := range g.Rules {
			loaded = append(loaded, r.Name)
			if r.Health != "ok" || r.LastError != "" {
				t.Errorf("rule %s of group %s: health %q, error %q", r.Name, g.Name, r.Health, r.LastError)
			}
		}
	}
	sort.Strings(loaded)
	if strings.Join(loaded, " ") != strings.Join(want, " ") {
		t.Errorf("loaded rules %v, want those of alerts.yml %v", loaded, want)
	}
}

// evaluatedAfter reports whether there are groups and each was last
// evaluated after t.
func evaluatedAfter(groups []ruleGroup, t time.Time) bool {
	for _, g := range groups {
		if !g.LastEvaluation.After(t) {
			return false
		}
	}
	return len(groups) > 0
}

var alertLine = regexp.MustCompile(`(?m)^\s*- alert: (\S+)\s*$`)

// alertNames are the alerts alerts.yml defines, sorted.
func alertNames(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range alertLine.FindAllStringSubmatch(string(b), -1) {
		names = append(names, m[1])
	}
	sort.Strings(names)
	return names
}

// checkQueries runs every dashboard target, its template variables
// expanded, until each has returned at least one series (a stage's
// series exist only while a run is in it) or within passes. A query
// Prometheus refuses fails at once.
func checkQueries(t *testing.T, a promAPI, qs []query, within time.Duration) {
	t.Helper()
	pending := map[query]string{}
	for _, q := range qs {
		expr := expand.Replace(q.expr)
		if strings.Contains(expr, "$") {
			t.Errorf("panel %q target %s: unexpanded variable in %s", q.panel, q.refID, expr)
			continue
		}
		if _, excused := noSeries[q.expr]; !excused {
			pending[q] = expr
		}
	}
	deadline := time.Now().Add(within)
	for len(pending) > 0 && !t.Failed() {
		for q, expr := range pending {
			var data struct{ Result []json.RawMessage }
			if err := a.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
				t.Errorf("panel %q target %s: %s: %v", q.panel, q.refID, expr, err)
			} else if len(data.Result) > 0 {
				delete(pending, q)
			}
		}
		if time.Now().After(deadline) {
			for q, expr := range pending {
				t.Errorf("panel %q target %s returned no series within %s: %s", q.panel, q.refID, within, expr)
			}
			return
		}
		time.Sleep(time.Second)
	}
}

// labelValues are the values of label on the series of match.
func (a promAPI) labelValues(t *testing.T, label, match string) []string {
	t.Helper()
	var vals []string
	if err := a.get("/api/v1/label/"+label+"/values", url.Values{"match[]": {match}}, &vals); err != nil {
		t.Fatalf("label values: %v", err)
	}
	return vals
}
