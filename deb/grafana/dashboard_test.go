package grafana

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dashboard is the part of Grafana's dashboard model the tests read.
type dashboard struct {
	ID            *int   `json:"id"`
	UID           string `json:"uid"`
	Title         string `json:"title"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type variable struct {
	Name       string      `json:"name"`
	Type       string      `json:"type"`
	Query      any         `json:"query"`
	Datasource *datasource `json:"datasource"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type panel struct {
	ID         int         `json:"id"`
	Type       string      `json:"type"`
	Title      string      `json:"title"`
	Datasource *datasource `json:"datasource"`
	Targets    []target    `json:"targets"`
}

type target struct {
	RefID      string      `json:"refId"`
	Expr       string      `json:"expr"`
	Datasource *datasource `json:"datasource"`
}

// query is one target of one panel.
type query struct{ panel, refID, expr string }

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	b, err := os.ReadFile("maas-sidecar.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("maas-sidecar.json: %v", err)
	}
	return d
}

// queries lists every target of every panel.
func (d dashboard) queries() []query {
	var qs []query
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			qs = append(qs, query{p.Title, tg.RefID, tg.Expr})
		}
	}
	return qs
}

const dsVar = "${datasource}"

// The dashboard imports anywhere: no id, a fixed uid, a current schema,
// the data source as a variable (never a fixed uid) on every panel and
// target, and a site variable read from the metrics.
func TestDashboardIsImportable(t *testing.T) {
	d := loadDashboard(t)
	if d.ID != nil || d.UID == "" || d.Title == "" {
		t.Errorf("id %v, uid %q, title %q: want a null id, a uid and a title", d.ID, d.UID, d.Title)
	}
	if d.SchemaVersion < 39 {
		t.Errorf("schemaVersion %d, want 39 or later", d.SchemaVersion)
	}
	vars := map[string]variable{}
	for _, v := range d.Templating.List {
		vars[v.Name] = v
	}
	if v := vars["datasource"]; v.Type != "datasource" || v.Query != "prometheus" {
		t.Errorf("datasource variable %+v, want type datasource, query prometheus", v)
	}
	if v := vars["site"]; v.Type != "query" || v.Datasource == nil || v.Datasource.UID != dsVar {
		t.Errorf("site variable %+v, want a query on %s", v, dsVar)
	}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d used twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != dsVar || len(p.Targets) == 0 {
			t.Errorf("panel %q: datasource %+v, %d targets; want %s and at least one", p.Title, p.Datasource, len(p.Targets), dsVar)
		}
		for _, tg := range p.Targets {
			if tg.Expr == "" || tg.Datasource == nil || tg.Datasource.UID != dsVar {
				t.Errorf("panel %q target %s: expr %q, datasource %+v", p.Title, tg.RefID, tg.Expr, tg.Datasource)
			}
		}
	}
}

var metricName = regexp.MustCompile(`maas_sidecar_[a-z0-9_]+`)

// Every metric the dashboard reads is in the operator's guide's metric
// table (which is checked against the code), and the panels the issue
// asks for are there.
func TestDashboardReadsDocumentedMetrics(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, q := range loadDashboard(t).queries() {
		for _, m := range metricName.FindAllString(q.expr, -1) {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				m = strings.TrimSuffix(m, suffix)
			}
			if !strings.Contains(string(doc), "`"+m+"`") {
				t.Errorf("panel %q reads %s, which docs/operations.md does not list", q.panel, m)
			}
			used = append(used, m)
		}
	}
	for _, m := range []string{"maas_sidecar_runs", "maas_sidecar_stage_active_runs", "maas_sidecar_stage_oldest_start_timestamp_seconds",
		"maas_sidecar_drift_open", "maas_sidecar_feed_lag_seconds", "maas_sidecar_webhook_rejected_total",
		"maas_sidecar_maas_errors_total", "maas_sidecar_vault_requests_total", "maas_sidecar_bmc_operations_total",
		"maas_sidecar_agent_heartbeats_total", "maas_sidecar_decommissions_total", "maas_sidecar_agent_enroll_total",
		"maas_sidecar_agent_auth_failures_total", "maas_sidecar_events_oldest_undelivered_age_seconds",
		"maas_sidecar_feed_listener_up", "maas_sidecar_feed_listener_reconnects_total", "maas_sidecar_feed_listener_errors_total",
		"maas_sidecar_feed_notifications_total"} {
		if !slices.Contains(used, m) {
			t.Errorf("no panel reads %s", m)
		}
	}
}
