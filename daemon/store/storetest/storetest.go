package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Harness gives the suite access to one backend instance.
type Harness struct {
	// Open opens the store on the harness's storage. Called again after
	// Close, it must open the same storage (same data).
	Open func(t *testing.T) lifecycle.Store
}

// NewHarness creates fresh, empty storage whose store reads time from clock.
type NewHarness func(t *testing.T, clock *clockwork.FakeClock) Harness

// NewClock returns a fake clock at the suite's fixed instant; the suite
// moves it by hand.
func NewClock() *clockwork.FakeClock {
	return clockwork.NewFakeClockAt(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
}

// group is one named part of the suite.
type group struct {
	name string
	fn   func(*testing.T, *env)
}

// groups are the suite's parts, in the order Run runs them.
func groups() []group {
	return []group{
		{"Sites", testSites}, {"SitePolicy", testSitePolicy},
		{"Nodes", testNodes}, {"NodeTransitions", testNodeTransitions}, {"NodeIdentity", testNodeIdentity},
		{"DeleteUnenrolledNode", testDeleteUnenrolled}, {"NodePages", testNodePages}, {"NodeCounts", testNodeCounts}, {"RunPages", testRunPages},
		{"KindPages", testKindPages}, {"DriftPages", testDriftPages}, {"TokenPages", testTokenPages},
		{"Runs", testRuns}, {"RunEvents", testRunEvents}, {"AdvanceRun", testAdvanceRun},
		{"Leases", testLeases}, {"LeaseRequests", testLeaseRequests}, {"Fencing", testFencing},
		{"LeaseClockJumpKeepsOneHolderFencedByEpoch", testLeaseClockJumps},
		{"EventWriters", testEventWriters},
		{"Audit", testAudit}, {"AuditBatch", testAuditBatch}, {"Tokens", testTokens},
		{"TaskQueue", testTaskQueue}, {"TaskExpiry", testTaskExpiry}, {"Enrollment", testEnrollment},
		{"EnrollmentRenewal", testEnrollmentRenewal},
		{"EnrollmentReinstate", testEnrollmentReinstate},
		{"BootstrapTickets", testBootstrapTickets},
		{"PowerOverrides", testPowerOverrides}, {"RoCE", testRoCE}, {"Submit", testSubmit}, {"BatchPages", testBatchPages},
		{"MaasState", testMaasState}, {"MaasStates", testMaasStates}, {"WebhookInbox", testWebhookInbox}, {"FeedCursor", testFeedCursor},
		{"Outbox", testOutbox}, {"OutboxPrune", testOutboxPrune}, {"Parts", testParts}, {"Health", testHealth},
		{"ConcurrentWriters", testConcurrentWriters}, {"Reopen", testReopen}, {"Closed", testClosed},
	}
}

// Groups names the suite's groups in order, for a backend that runs a
// part of the suite with RunGroups.
func Groups() []string {
	var out []string
	for _, g := range groups() {
		out = append(out, g.name)
	}
	return out
}

// Run runs the whole suite against the backend built by nh.
func Run(t *testing.T, nh NewHarness) { runGroups(t, nh, groups()) }

// RunGroups runs only the named groups (see Groups), in the suite's
// order: for a backend that does not implement every operation yet. An
// unknown name fails the test.
func RunGroups(t *testing.T, nh NewHarness, names ...string) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var sel []group
	for _, g := range groups() {
		if want[g.name] {
			sel = append(sel, g)
			delete(want, g.name)
		}
	}
	for n := range want {
		t.Errorf("storetest has no group %q", n)
	}
	runGroups(t, nh, sel)
}

func runGroups(t *testing.T, nh NewHarness, suites []group) {
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			clock := NewClock()
			h := nh(t, clock)
			st := h.Open(t)
			t.Cleanup(func() { st.Close() })
			s.fn(t, &env{t: t, h: h, st: st, clock: clock, ctx: context.Background()})
		})
	}
}

// env is one subtest's fixture.
type env struct {
	t     *testing.T
	h     Harness
	st    lifecycle.Store
	clock *clockwork.FakeClock
	ctx   context.Context
	n     int
}

func (e *env) id(prefix string) string { e.n++; return fmt.Sprintf("%s-%03d", prefix, e.n) }

func (e *env) site() lifecycle.Site {
	e.t.Helper()
	id := e.id("site")
	s := lifecycle.Site{ID: id, Name: "maas-" + id, RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	e.must(e.st.CreateSite(e.ctx, s, lifecycle.DefaultSitePolicy(id)))
	got, err := e.st.GetSite(e.ctx, id)
	e.must(err)
	return got
}

func (e *env) node(siteID string, st lifecycle.NodeState) lifecycle.Node {
	e.t.Helper()
	id := e.id("node")
	e.must(e.st.CreateNode(e.ctx, lifecycle.Node{ID: id, SiteID: siteID, Hostname: "h-" + id, SKU: "mi300x.192g.8gpu", Status: st}))
	n, err := e.st.GetNode(e.ctx, id)
	e.must(err)
	return n
}

func (e *env) run(siteID, batchID string) lifecycle.Run {
	e.t.Helper()
	id := e.id("run")
	e.must(e.st.CreateRun(e.ctx, lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, SiteID: siteID,
		BatchID: batchID, Hostname: "h-" + id, Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig}))
	r, err := e.st.GetRun(e.ctx, id)
	e.must(err)
	return r
}

func (e *env) lease(siteID, holder string) lifecycle.Lease {
	e.t.Helper()
	l, err := e.st.ClaimLease(e.ctx, siteID, holder, time.Minute)
	e.must(err)
	return l
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

// wantCode fails unless err carries code.
func (e *env) wantCode(err error, code lifecycle.Code) {
	e.t.Helper()
	if got := lifecycle.ErrorCode(err); got != code {
		e.t.Fatalf("got %v (code %q), want code %q", err, got, code)
	}
}
