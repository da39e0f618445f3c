package workflow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// memOutbox is the durable outbox of these tests: idempotent by event id.
type memOutbox struct {
	mu    sync.Mutex
	byID  map[string]lifecycle.OutboxEvent
	order []string
}

func newMemOutbox() *memOutbox { return &memOutbox{byID: map[string]lifecycle.OutboxEvent{}} }

func (o *memOutbox) AppendEvent(_ context.Context, e lifecycle.OutboxEvent) (lifecycle.OutboxEvent, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if old, ok := o.byID[e.ID]; ok {
		return old, nil
	}
	e.Seq = uint64(len(o.order) + 1)
	o.byID[e.ID] = e
	o.order = append(o.order, e.ID)
	return e, nil
}

// types lists the event types of run, in order.
func (o *memOutbox) types(runID string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for _, id := range o.order {
		if e := o.byID[id]; e.RunID == runID {
			out = append(out, string(e.Type))
		}
	}
	return out
}

// memMetrics records the decommission counters as "validation:MODE" and
// "scrub:VENDOR".
type memMetrics struct {
	mu     sync.Mutex
	counts []string
}

func (m *memMetrics) ValidationFailed(mode lifecycle.DecommissionMode) {
	m.add("validation:" + string(mode))
}
func (m *memMetrics) ScrubFailed(vendor string) { m.add("scrub:" + vendor) }

func (m *memMetrics) add(s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts = append(m.counts, s)
}

func (m *memMetrics) seen() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.counts...)
}

// answer is what the fake agent reports for a task; ok=false leaves the
// task unanswered (a host that never finishes it).
type answer func(t lifecycle.AgentTask) (res lifecycle.TaskResult, ok bool)

// cleanHost answers every task with success and passing evidence.
func cleanHost(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
	return result(t, true), true
}

func result(t lifecycle.AgentTask, passed bool) lifecycle.TaskResult {
	ev := wire.Evidence{Task: string(t.Type), Passed: passed, CollectedAt: time.Now(),
		Checks: []wire.Check{{Name: "tenant_users", Passed: true}, {Name: "gpu_memory", Passed: passed, Reason: "1 GPU holds 4096 MiB"}}}
	if t.Type == lifecycle.TaskGPUScrub || t.Type == lifecycle.TaskValidateClean {
		ev.GPUs = []wire.GPUEvidence{{Vendor: wire.VendorAMD, UUID: "GPU-1", Passed: passed}}
	}
	b, _ := json.Marshal(ev)
	msg := "ok"
	if !passed {
		msg = "residue remains"
	}
	return lifecycle.TaskResult{Success: passed, Message: msg, FinishedAt: time.Now(), Evidence: b}
}

// runAgent answers node's tasks as its agent would through the agent
// API (claim, run, report; the result hook wakes the node's runs) until
// the test ends, and returns the tasks it saw.
func (s *site) runAgent(nodeID string, a answer) *seenTasks {
	seen := &seenTasks{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			t, ok, err := s.store.ClaimTask(ctx, nodeID, time.Minute)
			if err != nil || !ok {
				time.Sleep(5 * time.Millisecond)
				continue
			}
			seen.add(t)
			res, answered := a(t)
			if !answered {
				continue
			}
			if _, err := s.store.CompleteTask(ctx, nodeID, t.ID, t.Seq, res); err == nil {
				s.runner.Wake(lifecycle.NodeKey(nodeID))
			}
		}
	}()
	return seen
}

type seenTasks struct {
	mu    sync.Mutex
	tasks []lifecycle.AgentTask
}

func (st *seenTasks) add(t lifecycle.AgentTask) {
	st.mu.Lock()
	st.tasks = append(st.tasks, t)
	st.mu.Unlock()
}

func (st *seenTasks) types() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for _, t := range st.tasks {
		out = append(out, string(t.Type))
	}
	return out
}

// deployedNode seeds a Deployed machine at ip and its active node, whose
// agent holds certificate serial "old-<hostname>".
func (s *site) deployedNode(hostname, ip string) lifecycle.Node {
	s.t.Helper()
	ctx := context.Background()
	s.host(ip, maassim.HostSpec{})
	sid, err := s.sim.AddMachine(maassim.HostSpec{PowerAddress: ip}, hostname, maassim.StatusDeployed)
	must(s.t, err)
	id, _ := lifecycle.NewID(nil)
	must(s.t, s.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: "site-1", Hostname: hostname, SKU: "mi300x.192g.8gpu",
		Status: lifecycle.NodeEnrolling, MaasSystemID: sid, IPMIIP: ip, IdentityRetained: true}))
	s.certify(id, "old-"+hostname)
	n, err := s.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	must(s.t, err)
	return n
}

// certify records an enrollment of node's agent with certificate serial.
func (s *site) certify(nodeID, serial string) {
	now := time.Now()
	_, err := s.store.UpdateNode(context.Background(), nodeID, func(n *lifecycle.Node) error {
		n.EnrolledAt = &now
		n.SetAgentCert(serial, []byte("der-"+serial), false, now)
		return nil
	})
	must(s.t, err)
}

// reenrollOnBoot makes every booted host's agent enroll with a fresh
// certificate, as the agent API does, and wake the node's runs.
func (s *site) reenrollOnBoot() {
	var mu sync.Mutex
	n := 0
	s.enroll = func(b maassim.Boot) {
		nodes, _ := s.store.ListNodes(context.Background(), lifecycle.NodeFilter{SiteID: "site-1"})
		for _, x := range nodes {
			if x.Hostname == b.Hostname && x.Status != lifecycle.NodeDeleted {
				mu.Lock()
				n++
				serial := fmt.Sprintf("new-%s-%d", b.Hostname, n)
				mu.Unlock()
				s.certify(x.ID, serial)
				s.runner.Wake(lifecycle.NodeKey(x.ID))
			}
		}
	}
}

// decommission submits a decommission of node n.
func (s *site) decommission(n lifecycle.Node, req lifecycle.DecommissionRequest) string {
	s.t.Helper()
	id, _ := lifecycle.NewID(nil)
	r, err := lifecycle.NewDecommissionRun(id, n, req, "test", time.Now())
	must(s.t, err)
	must(s.t, s.store.CreateRun(context.Background(), r))
	s.runner.Submit(id)
	return id
}

func (s *site) node(id string) lifecycle.Node {
	n, err := s.store.GetNode(context.Background(), id)
	must(s.t, err)
	return n
}

// runTasks lists the tasks the store holds for run id, by type.
func (s *site) runTasks(nodeID, runID string) map[lifecycle.TaskType]lifecycle.AgentTask {
	ts, err := s.store.ListTasks(context.Background(), lifecycle.TaskFilter{NodeID: nodeID})
	must(s.t, err)
	out := map[lifecycle.TaskType]lifecycle.AgentTask{}
	for _, t := range ts {
		if t.RunID == runID {
			out[t.Type] = t
		}
	}
	return out
}

// stageDetails merges the details of run's events at stage.
func (s *site) stageDetails(runID string, st lifecycle.Stage) map[string]string {
	evs, err := s.store.ListRunEvents(context.Background(), runID, 0, 0)
	must(s.t, err)
	out := map[string]string{}
	for _, e := range evs {
		if e.Stage == st {
			for k, v := range e.Details {
				out[k] = v
			}
		}
	}
	return out
}

// machineCalls counts the MAAS calls of method+op on machine sid.
func (s *site) machineCalls(sid string) string {
	return fmt.Sprintf("release=%d deploy=%d power_off=%d", s.log.count(sid, "POST", "release"),
		s.log.count(sid, "POST", "deploy"), s.log.count(sid, "POST", "power_off"))
}

func joined(xs []string) string { return strings.Join(xs, ",") }

// eventTypes waits briefly for run id to have n events (the ending
// event is appended just after the journal write that ends the run),
// then returns their types.
func (s *site) eventTypes(id string, n int) []string {
	deadline := time.Now().Add(5 * time.Second)
	for len(s.outbox.types(id)) < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return s.outbox.types(id)
}

func newFakeClock() *clockwork.FakeClock { return clockwork.NewFakeClockAt(time.Now()) }

// withInventory adds a bill of materials to node.validate_clean's
// evidence: eight H100s whose serials are serials.
func withInventory(a answer, serials func() []string) answer {
	return func(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		res, ok := a(t)
		if t.Type != lifecycle.TaskValidateClean {
			return res, ok
		}
		var ev wire.Evidence
		_ = json.Unmarshal(res.Evidence, &ev)
		ev.Inventory = &wire.Inventory{BIOSVersion: "2.3.7",
			Drives: []wire.InventoryDrive{{Name: "nvme0", Serial: "S6EYNA0T1", Model: "PM1743", Firmware: "GDC5602Q"}}}
		for i, s := range serials() {
			ev.Inventory.GPUs = append(ev.Inventory.GPUs, wire.InventoryGPU{Vendor: wire.VendorNVIDIA,
				Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-" + s, Serial: s, BusID: fmt.Sprintf("00000000:%02x:00.0", 0x18+i)})
		}
		res.Evidence, _ = json.Marshal(ev)
		return res, ok
	}
}

// outboxEvent returns run's event of type typ (zero when none).
func (s *site) outboxEvent(runID string, typ lifecycle.EventType) lifecycle.OutboxEvent {
	s.outbox.mu.Lock()
	defer s.outbox.mu.Unlock()
	for _, id := range s.outbox.order {
		if e := s.outbox.byID[id]; e.RunID == runID && e.Type == typ {
			return e
		}
	}
	return lifecycle.OutboxEvent{}
}
