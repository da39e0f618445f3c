package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func testMaasState(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err := e.st.UpdateNode(e.ctx, n.ID, func(x *lifecycle.Node) error { x.MaasSystemID = "abc123"; return nil })
	e.must(err)
	_, err = e.st.GetNodeMaasState(e.ctx, n.ID)
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.UpdateNodeMaasState(e.ctx, "missing", func(*lifecycle.NodeMaasState) error { return nil })
	e.wantCode(err, lifecycle.CodeNotFound)

	now := e.clock.Now()
	got, err := e.st.UpdateNodeMaasState(e.ctx, n.ID, func(x *lifecycle.NodeMaasState) error {
		x.Present, x.LastStatus, x.LastIPs, x.LastObservedAt = true, "Ready", []string{"10.0.0.9"}, &now
		x.Drift = lifecycle.Drift{DriftDetected: true, DriftRule: lifecycle.DriftReleased,
			DriftSeverity: lifecycle.SeverityCritical, DriftDetails: map[string]string{"maas_status": "Ready"}, DriftDetectedAt: &now}
		return nil
	})
	e.must(err)
	want := lifecycle.NodeMaasState{NodeID: n.ID, SiteID: s.ID, MaasSystemID: "abc123", Present: true,
		LastStatus: "Ready", LastIPs: []string{"10.0.0.9"}, LastObservedAt: &now,
		Drift: lifecycle.Drift{DriftDetected: true, DriftRule: lifecycle.DriftReleased, DriftSeverity: lifecycle.SeverityCritical,
			DriftDetails: map[string]string{"maas_status": "Ready"}, DriftDetectedAt: &now}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("update (-want +got):\n%s", d)
	}
	read, err := e.st.GetNodeMaasState(e.ctx, n.ID)
	e.must(err)
	if d := cmp.Diff(want, read); d != "" {
		t.Fatalf("read back (-want +got):\n%s", d)
	}
	_, err = e.st.UpdateNodeMaasState(e.ctx, n.ID, func(x *lifecycle.NodeMaasState) error { x.SiteID = "other"; return nil })
	e.wantCode(err, lifecycle.CodeInvalid)

	other := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err = e.st.UpdateNodeMaasState(e.ctx, other.ID, func(x *lifecycle.NodeMaasState) error { x.LastStatus = "Deployed"; return nil })
	e.must(err)
	all, err := e.st.ListNodeMaasStates(e.ctx, lifecycle.MaasStateFilter{SiteID: s.ID})
	e.must(err)
	drifted, err := e.st.ListNodeMaasStates(e.ctx, lifecycle.MaasStateFilter{DriftOnly: true})
	e.must(err)
	if len(all) != 2 || len(drifted) != 1 || drifted[0].NodeID != n.ID {
		t.Fatalf("list: all=%d drifted=%+v", len(all), drifted)
	}
}

func hook(site, id string) lifecycle.WebhookEvent {
	return lifecycle.WebhookEvent{SiteID: site, ID: id, Type: "machine.status_changed", SystemID: "sys-" + id}
}

func testWebhookInbox(t *testing.T, e *env) {
	_, err := e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{{SiteID: "s1", ID: "x"}})
	e.wantCode(err, lifecycle.CodeInvalid)
	dup, err := e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{hook("s1", "a"), hook("s1", "b"), hook("s1", "a"), hook("s2", "a")})
	e.must(err)
	if d := cmp.Diff([]bool{false, false, true, false}, dup); d != "" {
		t.Fatalf("dup (-want +got):\n%s", d)
	}
	dup, err = e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{hook("s1", "b"), hook("s1", "c")})
	e.must(err)
	if d := cmp.Diff([]bool{true, false}, dup); d != "" {
		t.Fatalf("dup across commits (-want +got):\n%s", d)
	}
	pend, err := e.st.PendingWebhooks(e.ctx, 0)
	e.must(err)
	var ids []string
	for i, p := range pend {
		ids = append(ids, p.SiteID+"/"+p.ID)
		if i > 0 && p.Seq <= pend[i-1].Seq || p.ReceivedAt != e.clock.Now() {
			t.Fatalf("pending %d = %+v", i, p)
		}
	}
	if d := cmp.Diff([]string{"s1/a", "s1/b", "s2/a", "s1/c"}, ids); d != "" {
		t.Fatalf("pending order (-want +got):\n%s", d)
	}
	two, err := e.st.PendingWebhooks(e.ctx, 2)
	e.must(err)
	e.must(e.st.AckWebhooks(e.ctx, []uint64{two[0].Seq, two[1].Seq}))
	e.must(e.st.AckWebhooks(e.ctx, []uint64{two[0].Seq})) // twice is fine
	left, err := e.st.PendingWebhooks(e.ctx, 0)
	e.must(err)
	if len(left) != 2 || left[0].ID != "a" || left[0].SiteID != "s2" {
		t.Fatalf("after ack: %+v", left)
	}
	dup, err = e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{hook("s1", "a")})
	e.must(err)
	if !dup[0] {
		t.Fatal("a processed event's id must still deduplicate")
	}
	e.clock.Advance(time.Hour)
	n, err := e.st.PruneWebhooks(e.ctx, e.clock.Now())
	e.must(err)
	if n != 2 {
		t.Fatalf("pruned %d, want the 2 processed events", n)
	}
	dup, err = e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{hook("s1", "a"), hook("s2", "a")})
	e.must(err)
	if d := cmp.Diff([]bool{false, true}, dup); d != "" {
		t.Fatalf("after prune only processed ids are forgotten (-want +got):\n%s", d)
	}
}

func testFeedCursor(t *testing.T, e *env) {
	c, err := e.st.GetFeedCursor(e.ctx, "s1")
	e.must(err)
	if c.EventID != 0 || c.SiteID != "s1" || !c.UpdatedAt.IsZero() {
		t.Fatalf("fresh cursor = %+v", c)
	}
	e.must(e.st.SetFeedCursor(e.ctx, lifecycle.FeedCursor{SiteID: "s1", EventID: 170}))
	e.wantCode(e.st.SetFeedCursor(e.ctx, lifecycle.FeedCursor{SiteID: "s1", EventID: 169}), lifecycle.CodeConflict)
	e.wantCode(e.st.SetFeedCursor(e.ctx, lifecycle.FeedCursor{EventID: 1}), lifecycle.CodeInvalid)
	e.must(e.st.SetFeedCursor(e.ctx, lifecycle.FeedCursor{SiteID: "s1", EventID: 170}))
	c, err = e.st.GetFeedCursor(e.ctx, "s1")
	e.must(err)
	if c.EventID != 170 || c.UpdatedAt != e.clock.Now() {
		t.Fatalf("cursor = %+v", c)
	}
}
