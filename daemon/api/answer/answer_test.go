package answer_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var at = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func run(k lifecycle.RunKind) lifecycle.Run {
	return lifecycle.Run{ID: "r1", Kind: k, Hostname: "gpu-1", Status: lifecycle.JobRunning, SiteID: "s1", NodeID: "n1",
		RequestedAt: at, UpdatedAt: at}
}

func events() []lifecycle.RunEvent {
	return []lifecycle.RunEvent{{RunID: "r1", Stage: "preflight", Attempt: 1, Status: lifecycle.EventStarted, OccurredAt: at}}
}

// samples are answers of each kind and the OpenAPI schema each must meet.
func samples() []struct {
	schema string
	v, in  any // the value written, and a fresh value to read it back into
} {
	ok, gpus := true, 8
	task := answer.Task{ID: "t1", Type: "node.gpu_scrub", State: "succeeded", Attempts: 1, Success: &ok,
		Evidence: json.RawMessage(`{"gpus":[]}`), FinishedAt: &at, CreatedAt: at}
	sum := lifecycle.SummarizeCounts(map[lifecycle.JobState]int{lifecycle.JobRunning: 1})
	return []struct {
		schema string
		v, in  any
	}{
		{"OnboardingView", answer.RunView{Run: run(lifecycle.RunOnboarding), Events: events()}, &answer.RunView{}},
		{"DecommissionView", answer.RunView{Run: run(lifecycle.RunDecommission), Events: events(), Tasks: []answer.Task{task}}, &answer.RunView{}},
		{"OnboardingList", answer.RunList{Kind: answer.Onboarding, Runs: []lifecycle.Run{run(lifecycle.RunOnboarding)}, NextCursor: "c", Batch: &sum}, &answer.RunList{}},
		{"DecommissionList", answer.RunList{Kind: answer.Decommission, Runs: []lifecycle.Run{run(lifecycle.RunDecommission)}}, &answer.RunList{}},
		{"ActionResult", answer.ActionResult{Run: run(lifecycle.RunOnboarding), Action: lifecycle.ActionCancel, NoOp: true}, &answer.ActionResult{}},
		{"DecommissionActionResult", answer.ActionResult{Run: run(lifecycle.RunDecommission), Action: lifecycle.ActionResume}, &answer.ActionResult{}},
		{"ActionRequest", answer.ActionRequest{Reason: "INC-1"}, &answer.ActionRequest{}},
		{"DecommissionTask", task, &answer.Task{}},
		{"DecommissionRequest", answer.DecommissionRequest{Mode: lifecycle.ModeReimage, Erase: lifecycle.EraseQuick, Reason: "r"}, &answer.DecommissionRequest{}},
		{"DecommissionResult", answer.DecommissionResult{DecommissionID: "d1", Mode: lifecycle.ModeReimage, Status: lifecycle.JobPending}, &answer.DecommissionResult{}},
		{"OnboardRequest", answer.OnboardRequest{SiteID: "s1", SKUID: "h100", Hostname: "gpu-1", IPMIIP: "10.0.0.1", GPUsTotal: &gpus}, &answer.OnboardRequest{}},
		{"BatchRequest", answer.BatchRequest{SiteID: "s1", SKUID: "h100", RegionCode: "eu-1",
			Nodes: []answer.OnboardNode{{Hostname: "gpu-1", IPMIIP: "10.0.0.1"}}}, &answer.BatchRequest{}},
		{"OnboardResult", answer.OnboardResult{OnboardingID: "o1", NodeID: "n1", Status: lifecycle.JobPending}, &answer.OnboardResult{}},
		{"BatchResult", answer.BatchResult{BatchID: "b1", Onboardings: []answer.BatchMember{{Hostname: "gpu-1", OnboardingID: "o1", NodeID: "n1"}}}, &answer.BatchResult{}},
	}
}

// TestAnswersMeetTheDocument writes each shared body and checks it
// against its schema in docs/openapi.json (which forbids members it does
// not name), then reads it back unchanged: server, client and document
// agree on one set of types.
func TestAnswersMeetTheDocument(t *testing.T) {
	v, err := openapitest.Admin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples() {
		t.Run(s.schema, func(t *testing.T) {
			b, err := json.Marshal(s.v)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.CheckSchema(s.schema, b); err != nil {
				t.Errorf("%s\n%s", err, b)
			}
			if err := json.Unmarshal(b, s.in); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(s.v, deref(s.in)); d != "" {
				t.Errorf("read back (-written +read):\n%s", d)
			}
		})
	}
}
