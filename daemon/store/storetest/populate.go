package storetest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Population names what Populate wrote.
type Population struct {
	SiteID, SiteName, NodeID, Hostname, RunID string
	// PendingTaskType is the type of the node's task still queued.
	PendingTaskType lifecycle.TaskType
	// Last numbers handed out, some of them pruned since.
	LastAudit, LastWebhook, LastOutbox, LastRunEvent, LastTaskSeq uint64
}

// populator writes through the public contract, keeping the first error.
type populator struct {
	ctx   context.Context
	st    lifecycle.Store
	clock *clockwork.FakeClock
	err   error
}

func (p *populator) do(err error) {
	if p.err == nil {
		p.err = err
	}
	p.clock.Advance(time.Second) // every record its own timestamps
}

// Populate writes at least one record of every exported kind into an
// empty store through the lifecycle.Store contract, with the clock moving
// between writes: two sites, nodes, MAAS state, a batch submission with
// an idempotency key and journals, audit, tokens (one revoked), agent
// tasks in every state, enrollment tokens, overrides, RoCE, webhooks and
// outbox events in every delivery state (the newest of each pruned, so a
// counter runs ahead of the records), a feed cursor, clean certificates
// in two sites' logs (a store with a certificate ledger), and a site lease,
// which an export leaves out.
func Populate(ctx context.Context, st lifecycle.Store, clock *clockwork.FakeClock) (Population, error) {
	p := &populator{ctx: ctx, st: st, clock: clock}
	pop := Population{SiteID: "site-a", SiteName: "maas-a", NodeID: "node-1", Hostname: "gpu-01", RunID: "run-1",
		PendingTaskType: lifecycle.TaskUninstall, LastAudit: 2, LastWebhook: 3, LastOutbox: 3, LastTaskSeq: 1}
	p.sites(pop)
	p.nodes(pop)
	pop.LastRunEvent = p.runs(pop)
	p.security(pop)
	p.tasks(pop)
	p.siteConfig(pop)
	p.feed(pop)
	p.outbox(pop)
	p.certificates(pop)
	return pop, p.err
}

func (p *populator) sites(pop Population) {
	for _, id := range []string{pop.SiteID, "site-b"} {
		name := map[bool]string{true: pop.SiteName, false: "maas-b"}[id == pop.SiteID]
		s := lifecycle.Site{ID: id, Name: name, RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
			PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
		p.do(p.st.CreateSite(p.ctx, s, lifecycle.DefaultSitePolicy(id)))
	}
	_, err := p.st.UpdateSitePolicy(p.ctx, "site-b", func(sp *lifecycle.SitePolicy) error { sp.MaxDeployRetryAttempts = 3; return nil })
	p.do(err)
}

func (p *populator) nodes(pop Population) {
	p.do(p.st.CreateNode(p.ctx, lifecycle.Node{ID: pop.NodeID, SiteID: pop.SiteID, Hostname: pop.Hostname,
		SKU: "mi300x.192g.8gpu", Status: lifecycle.NodeEnrolling}))
	p.do(p.st.CreateNode(p.ctx, lifecycle.Node{ID: "node-2", SiteID: pop.SiteID, Hostname: "GPU-02", Status: lifecycle.NodeBootstrapIssued}))
	p.do(p.st.TouchNodeContact(p.ctx, pop.NodeID))
	p.do(p.st.RecordPartEvents(p.ctx, lifecycle.PartEvent{Serial: "GPU-S1", ID: "failure:run-x", Kind: lifecycle.PartFailure,
		NodeID: pop.NodeID, SiteID: pop.SiteID, Source: "repair_run", Detail: "Xid 79"}))
	_, err := p.st.UpdateNodeMaasState(p.ctx, pop.NodeID, func(m *lifecycle.NodeMaasState) error {
		m.Present, m.LastStatus = true, "Deployed"
		return nil
	})
	p.do(err)
}

// runs submits a batch of two runs and journals the first; it returns
// the first run's last event number.
func (p *populator) runs(pop Population) uint64 {
	_, err := p.st.Submit(p.ctx, lifecycle.Submission{IdempotencyKey: "idem-1", RequestHash: "hash-1",
		Batch: &lifecycle.Batch{ID: "batch-1", SiteID: pop.SiteID, Kind: lifecycle.RunOnboarding, RequestedBy: "alice"},
		Runs: []lifecycle.Run{
			{ID: pop.RunID, Kind: lifecycle.RunOnboarding, SiteID: pop.SiteID, Hostname: pop.Hostname, Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig},
			{ID: "run-2", Kind: lifecycle.RunOnboarding, SiteID: pop.SiteID, Hostname: "gpu-03", Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig},
		}})
	p.do(err)
	l, err := p.st.ClaimLease(p.ctx, pop.SiteID, "daemon-a", time.Hour)
	p.do(err)
	for _, id := range []string{pop.RunID, "run-2"} {
		_, err = p.st.UpdateRun(p.ctx, l.Fence(), id, func(r *lifecycle.Run) error { r.Status = lifecycle.JobRunning; return nil })
		p.do(err)
	}
	_, err = p.st.UpdateRun(p.ctx, l.Fence(), "run-2", func(r *lifecycle.Run) error { r.Status = lifecycle.JobCompleted; return nil })
	p.do(err)
	_, _, err = p.st.RecordStage(p.ctx, l.Fence(), lifecycle.StageRecord{RunID: pop.RunID, Stage: lifecycle.StageLoadSiteConfig,
		Attempt: 1, Status: lifecycle.EventStarted, Details: map[string]string{"k": "v"}})
	p.do(err)
	evs, err := p.st.AppendRunEvents(p.ctx, l.Fence(), pop.RunID, []lifecycle.RunEvent{
		{Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventSucceeded, Message: "done"}})
	p.do(err)
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}

func (p *populator) security(pop Population) {
	for _, a := range []string{"site.create", "token.revoke"} {
		_, err := p.st.AppendAudit(p.ctx, lifecycle.AuditEntry{Actor: "alice", Role: "admin", Action: a, TargetKind: "site",
			TargetID: pop.SiteID, CorrelationIDs: map[string]string{"request_id": "r-" + a}})
		p.do(err)
	}
	p.do(p.st.CreateAdminToken(p.ctx, lifecycle.AdminToken{ID: "tok-1", Name: "bootstrap", Role: lifecycle.RoleAdmin, Hash: "hash-tok-1"}))
	p.do(p.st.CreateAdminToken(p.ctx, lifecycle.AdminToken{ID: "tok-2", Name: "ci", Role: lifecycle.RoleViewer, Hash: "hash-tok-2"}))
	_, err := p.st.RevokeAdminToken(p.ctx, "tok-2")
	p.do(err)
	for _, h := range []string{"enroll-old", "enroll-new"} {
		p.do(p.st.CreateEnrollmentToken(p.ctx, lifecycle.EnrollmentToken{Hash: h, NodeID: pop.NodeID, ExpiresAt: p.clock.Now().Add(time.Hour)}))
	}
	_, err = p.st.ConsumeEnrollmentToken(p.ctx, "enroll-new", pop.NodeID, "key-1")
	p.do(err)
}

func (p *populator) tasks(pop Population) {
	task := func(id string, typ lifecycle.TaskType) {
		_, _, err := p.st.EnqueueTask(p.ctx, lifecycle.AgentTask{ID: id, NodeID: pop.NodeID, Type: typ,
			Payload: []byte(`{"k":"v"}`), ExpiresAt: p.clock.Now().Add(time.Hour)})
		p.do(err)
	}
	task("task-1", lifecycle.TaskDrain)
	t, _, err := p.st.ClaimTask(p.ctx, pop.NodeID, time.Minute)
	p.do(err)
	_, err = p.st.CompleteTask(p.ctx, pop.NodeID, t.ID, t.Seq, lifecycle.TaskResult{Success: true, Message: "ok", FinishedAt: p.clock.Now()})
	p.do(err)
	task("task-2", pop.PendingTaskType)
}

func (p *populator) siteConfig(pop Population) {
	_, err := p.st.CreatePowerOverride(p.ctx, lifecycle.PowerOverride{ID: "ovr-1", SiteID: pop.SiteID, SelectorType: lifecycle.SelectPXEMac,
		SelectorValue: "AA:BB:CC:DD:EE:01", VaultPath: "kv/maas-sites/" + pop.SiteID + "/power/overrides/ovr-1"})
	p.do(err)
	_, err = p.st.UpsertRoCEAssignments(p.ctx, pop.SiteID, []lifecycle.RoCEAssignment{
		{ID: "roce-1", Hostname: pop.Hostname, Interface: "enp28s0np0", IPv4CIDR: "172.30.9.61/31"}})
	p.do(err)
}

// feed leaves webhook 1 pending, 2 processed and 3 pruned.
func (p *populator) feed(pop Population) {
	for _, id := range []string{"w1", "w2", "w3"} {
		_, err := p.st.IngestWebhooks(p.ctx, []lifecycle.WebhookEvent{{SiteID: pop.SiteID, ID: id, Type: "machine.status_changed", SystemID: "sys-" + id}})
		p.do(err)
	}
	p.do(p.st.AckWebhooks(p.ctx, []uint64{3}))
	_, err := p.st.PruneWebhooks(p.ctx, p.clock.Now())
	p.do(err)
	p.do(p.st.AckWebhooks(p.ctx, []uint64{2}))
	p.do(p.st.SetFeedCursor(p.ctx, lifecycle.FeedCursor{SiteID: pop.SiteID, EventID: 42}))
}

// outbox leaves event 1 failed once and pending, 2 delivered (its run can
// still act) and 3 delivered and pruned.
func (p *populator) outbox(pop Population) {
	for i, run := range []string{"", pop.RunID, ""} {
		_, err := p.st.AppendEvent(p.ctx, lifecycle.OutboxEvent{ID: "evt-" + string(rune('1'+i)), Type: lifecycle.EventOnboardingStarted,
			NodeID: pop.NodeID, SiteID: pop.SiteID, RunID: run, Data: json.RawMessage(`{"k":"v"}`)})
		p.do(err)
	}
	p.do(p.st.MarkFailed(p.ctx, "evt-1", "connection refused", p.clock.Now().Add(time.Minute)))
	p.do(p.st.MarkDelivered(p.ctx, "evt-2", p.clock.Now()))
	p.do(p.st.MarkDelivered(p.ctx, "evt-3", p.clock.Now()))
	_, err := p.st.PruneDelivered(p.ctx, p.clock.Now().Add(time.Second), 10)
	p.do(err)
}
