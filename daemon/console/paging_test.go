package console_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var nextLink = regexp.MustCompile(`<a rel="next" href="([^"]+)">`)

// walk follows a list's Next links from path and returns every match of
// row (its first group) on every page, and how many pages it read.
func (b *browser) walk(path string, row *regexp.Regexp) ([]string, int) {
	b.e.t.Helper()
	var got []string
	pages := 0
	for path != "" {
		r, page := b.get(path)
		if r.StatusCode != http.StatusOK {
			b.e.t.Fatalf("%s: %d\n%s", path, r.StatusCode, page)
		}
		if pages++; pages > 20 {
			b.e.t.Fatalf("more than 20 pages: the Next link of %s goes round", path)
		}
		for _, m := range row.FindAllStringSubmatch(page, -1) {
			got = append(got, m[1])
		}
		path = ""
		if m := nextLink.FindStringSubmatch(page); m != nil {
			path = html.UnescapeString(m[1])
		}
	}
	return got, pages
}

// seenOnce fails unless got holds want distinct items, each once.
func seenOnce(t *testing.T, list string, got []string, want int) {
	t.Helper()
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Errorf("%s: %s shown twice", list, g)
		}
		seen[g] = true
	}
	if len(seen) != want {
		t.Errorf("%s: %d distinct items across the pages, want %d", list, len(seen), want)
	}
}

// nodes creates n nodes host-000… in site-1 and returns their ids.
func (e *env) nodes(n int) []string {
	e.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		host := fmt.Sprintf("host-%03d", i)
		ids[i] = "node-" + host
		must(e.t, e.store.CreateNode(context.Background(), lifecycle.Node{ID: ids[i], SiteID: "site-1", Hostname: host,
			SKU: "mi300x.192g.8gpu", GPUsTotal: 8, Status: lifecycle.NodeEnrolling, MaasSystemID: "sys-" + host}))
	}
	return ids
}

// drifted opens a drift finding on each node.
func (e *env) drifted(ids []string) {
	e.t.Helper()
	_, err := e.store.UpdateNodeMaasStates(context.Background(), ids, func(s *lifecycle.NodeMaasState) error {
		now := time.Now()
		s.DriftDetected, s.DriftRule, s.DriftSeverity, s.DriftDetectedAt = true, lifecycle.DriftHardwareFailure, lifecycle.SeverityCritical, &now
		return nil
	})
	must(e.t, err)
}

// TestNextPages: every console list pages through the API with its Next
// link, keeping its filters, and shows each item exactly once: the
// fleet (filtered by site), a batch's runs, the audit log, the drift
// findings and the decommissions.
func TestNextPages(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	ids := e.nodes(120)
	e.drifted(ids)
	runs := make([]lifecycle.Run, len(ids))
	for i, id := range ids {
		runs[i] = lifecycle.Run{ID: "run-" + id, Kind: lifecycle.RunOnboarding, SiteID: "site-1", NodeID: id, BatchID: "batch-big",
			Hostname: strings.TrimPrefix(id, "node-"), Status: lifecycle.JobPending}
	}
	_, err := e.store.Submit(ctx, lifecycle.Submission{IdempotencyKey: "k-big", RequestHash: "big", Runs: runs,
		Batch: &lifecycle.Batch{ID: "batch-big", SiteID: "site-1", Kind: lifecycle.RunOnboarding, RunIDs: runIDs(runs)}})
	must(t, err)
	decoms := make([]lifecycle.Run, 60)
	for i := range decoms {
		decoms[i] = lifecycle.Run{ID: fmt.Sprintf("dec-%03d", i), Kind: lifecycle.RunDecommission, Mode: lifecycle.DecommissionMode("soft_reset"),
			SiteID: "site-1", NodeID: ids[i], Hostname: strings.TrimPrefix(ids[i], "node-"), Status: lifecycle.JobPending,
			RequestedAt: time.Now().Add(time.Duration(i) * time.Second)}
	}
	_, err = e.store.Submit(ctx, lifecycle.Submission{IdempotencyKey: "k-dec", RequestHash: "dec", Runs: decoms})
	must(t, err)
	audit := make([]lifecycle.AuditEntry, 120)
	for i := range audit {
		audit[i] = lifecycle.AuditEntry{Actor: "token:a:b", Action: "test.entry", TargetKind: "node", TargetID: fmt.Sprintf("audited-%03d", i)}
	}
	_, err = e.store.AppendAudits(ctx, audit)
	must(t, err)

	b := e.signIn(lifecycle.RoleViewer)
	for _, c := range []struct {
		path string
		row  string
		want int
	}{
		{"/console/fleet?site_id=site-1", `<a href="/console/nodes/[^"]+">(host-\d+)</a>`, 120},
		{"/console/batches/batch-big", `<a href="/console/runs/[^"]+">(host-\d+)</a>`, 120},
		{"/console/audit", `(audited-\d+)`, 120},
		{"/console/drift", `<a href="/console/nodes/[^"]+">(node-host-\d+)</a>`, 120},
		{"/console/decommissions", `<a href="/console/runs/(dec-\d+)">`, 60},
	} {
		got, pages := b.walk(c.path, regexp.MustCompile(c.row))
		if c.path == "/console/audit" && len(got) > 0 && got[0] != "audited-119" {
			t.Errorf("the audit log starts with %s, want the newest, audited-119", got[0])
		}
		if wantPages := (c.want + 49) / 50; pages != wantPages {
			t.Errorf("%s: %d pages, want %d", c.path, pages, wantPages)
		}
		seenOnce(t, c.path, got, c.want)
	}
	if got, _ := b.walk("/console/fleet?site_id=site-2", regexp.MustCompile(`(host-\d+)</a>`)); len(got) != 0 {
		t.Errorf("the fleet filtered to another site shows %d nodes", len(got))
	}
}

func runIDs(runs []lifecycle.Run) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.ID
	}
	return out
}

// TestNodeDriftPastFirstPage: the node page reads its own node's drift,
// even when more than a page of the site's nodes drift before it.
func TestNodeDriftPastFirstPage(t *testing.T) {
	e := newEnv(t, false)
	ids := e.nodes(502)
	e.drifted(ids[:501])
	b := e.signIn(lifecycle.RoleViewer)
	if _, page := b.get("/console/nodes/" + ids[500]); !strings.Contains(page, "hardware_failure") || strings.Contains(page, "No open drift") {
		t.Fatalf("the node page of %s does not show its open drift:\n%s", ids[500], page)
	}
	if _, page := b.get("/console/nodes/" + ids[501]); !strings.Contains(page, "No open drift") {
		t.Fatalf("the node page of %s shows drift it does not have:\n%s", ids[501], page)
	}
}
