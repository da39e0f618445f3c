package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const onboardings = "/api/v1/admin/onboardings"

func TestOnboard(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	r := e.do(operatorRole, http.MethodPost, onboardings, onboardBody(id, "C07U43", "10.176.16.128"))
	expect(t, r, http.StatusCreated, "")
	var out map[string]any
	r.decode(t, &out)
	if out["status"] != "pending" || out["onboarding_id"] == "" {
		t.Errorf("answer = %v", out)
	}
	run := e.waitRun(out["onboarding_id"].(string), lifecycle.JobCompleted)
	if run.Hostname != "c07u43" || run.IPMIIP != "10.176.16.128" || run.SKU != "mi300x.192g.8gpu" || run.RequestedBy != "token:operator:tok-b" {
		t.Errorf("run = %+v", run)
	}
}

func TestOnboardValidation(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	body := func(k string, v any) map[string]any {
		b := onboardBody(id, "n1", "10.0.0.1")
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	tests := []struct {
		name string
		body any
		code int
		fld  string
	}{
		{"site missing", body("site_id", nil), 422, "site_id"},
		{"site unknown", body("site_id", "nope"), 422, "site_id"},
		{"profile missing", body("profile_id", nil), 422, "profile_id"},
		{"profile unknown", body("profile_id", "gpu-strict"), 422, "profile_id"},
		{"sku missing", body("sku_id", nil), 422, "sku_id"},
		{"sku malformed", body("sku_id", "mi 300"), 422, "sku_id"},
		{"hostname missing", body("hostname", nil), 422, "hostname"},
		{"hostname malformed", body("hostname", "c07u43.example.com"), 422, "hostname"},
		{"ipmi missing", body("ipmi_ip", nil), 422, "ipmi_ip"},
		{"ipmi malformed", body("ipmi_ip", "10.176.16.256"), 422, "ipmi_ip"},
		{"ipmi wrong type", body("ipmi_ip", 10), 400, "ipmi_ip"},
		{"pxe_mac is not input", body("pxe_mac", "aa:bb:cc:dd:ee:ff"), 400, "pxe_mac"},
		{"bad idempotency key", []any{onboardBody(id, "n1", "10.0.0.1"), "Idempotency-Key", strings.Repeat("k", 200)}, 422, "Idempotency-Key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r resp
			if b, ok := tt.body.([]any); ok {
				r = e.do(operatorRole, http.MethodPost, onboardings, b[0], b[1].(string), b[2].(string))
			} else {
				r = e.do(operatorRole, http.MethodPost, onboardings, tt.body)
			}
			expect(t, r, tt.code, tt.fld)
		})
	}
	e.assertNoRuns()
}

func (e *env) assertNoRuns() {
	e.t.Helper()
	runs, err := e.store.ListRuns(context.Background(), lifecycle.RunFilter{})
	e.must(err)
	if len(runs) != 0 {
		e.t.Errorf("refused requests created %d runs", len(runs))
	}
}

func TestOnboardConflicts(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	held := e.onboard(id, "bad-1", "10.0.0.9")
	e.waitRun(held, lifecycle.JobFailedManualIntervention)
	for name, b := range map[string]map[string]any{"same host": onboardBody(id, "BAD-1", "10.0.0.10"), "same BMC": onboardBody(id, "n2", "10.0.0.9")} {
		t.Run(name, func(t *testing.T) {
			r := e.do(operatorRole, http.MethodPost, onboardings, b)
			expect(t, r, http.StatusConflict, "")
			if !strings.Contains(string(r.Body), held) || !strings.Contains(string(r.Body), "failed_manual_intervention") {
				t.Errorf("conflict does not name the run and its state: %s", r.Body)
			}
		})
	}
}

func TestIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	path := onboardings
	send := func(body any, key string) resp {
		return e.do(operatorRole, http.MethodPost, path, body, "Idempotency-Key", key)
	}
	first := send(onboardBody(id, "n1", "10.0.0.1"), "k-1")
	expect(t, first, http.StatusCreated, "")
	again := send(onboardBody(id, "N1", "10.0.0.1"), "k-1")
	expect(t, again, http.StatusOK, "")
	if string(first.Body) != string(again.Body) {
		t.Errorf("replay answered %s, first %s", again.Body, first.Body)
	}
	expect(t, send(onboardBody(id, "n2", "10.0.0.2"), "k-1"), http.StatusConflict, "")
	runs, err := e.store.ListRuns(context.Background(), lifecycle.RunFilter{})
	e.must(err)
	if len(runs) != 1 {
		t.Errorf("%d runs after a retried request, want 1", len(runs))
	}
	batch := map[string]any{"site_id": id, "profile_id": id, "sku_id": "mi300x.192g.8gpu", "nodes": []map[string]string{{"hostname": "b1", "ipmi_ip": "10.0.1.1"}}}
	path = onboardings + "/batch"
	b1, b2 := send(batch, "k-2"), send(batch, "k-2")
	expect(t, b1, http.StatusCreated, "")
	expect(t, b2, http.StatusOK, "")
	if string(b1.Body) != string(b2.Body) {
		t.Errorf("batch replay answered %s, first %s", b2.Body, b1.Body)
	}
	runs, _ = e.store.ListRuns(context.Background(), lifecycle.RunFilter{})
	if len(runs) != 2 {
		t.Errorf("%d runs after a retried batch, want 2", len(runs))
	}
}

func batchBody(site string, nodes ...[2]string) map[string]any {
	var ns []map[string]string
	for _, n := range nodes {
		ns = append(ns, map[string]string{"hostname": n[0], "ipmi_ip": n[1]})
	}
	return map[string]any{"site_id": site, "profile_id": "default", "sku_id": "mi300x.192g.8gpu", "nodes": ns}
}

func TestOnboardBatch(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	r := e.do(operatorRole, http.MethodPost, onboardings+"/batch", batchBody(id, [2]string{"c07u43", "10.176.16.128"}, [2]string{"c07u44", "10.176.16.129"}))
	expect(t, r, http.StatusCreated, "")
	var out struct {
		BatchID     string `json:"batch_id"`
		Onboardings []struct {
			Hostname     string
			OnboardingID string `json:"onboarding_id"`
			NodeID       string `json:"node_id"`
		}
	}
	r.decode(t, &out)
	if out.BatchID == "" || len(out.Onboardings) != 2 || out.Onboardings[1].Hostname != "c07u44" {
		t.Fatalf("answer = %+v", out)
	}
	for _, o := range out.Onboardings {
		run := e.waitRun(o.OnboardingID, lifecycle.JobCompleted)
		if run.BatchID != out.BatchID {
			t.Errorf("run %s has batch %q", run.ID, run.BatchID)
		}
		if o.NodeID == "" || run.NodeID != o.NodeID || o.NodeID == out.Onboardings[0].OnboardingID {
			t.Errorf("answer names node %q, the run %q (seed 001 §4.1: each onboarding carries node_id)", o.NodeID, run.NodeID)
		}
	}
	if out.Onboardings[0].NodeID == out.Onboardings[1].NodeID {
		t.Error("two onboardings reserved one node id")
	}
}

func TestOnboardBatchValidation(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	ok := [2]string{"n1", "10.0.0.1"}
	tests := []struct {
		name string
		body map[string]any
		fld  string
	}{
		{"no nodes", batchBody(id), "nodes"},
		{"duplicate hostname", batchBody(id, ok, [2]string{"N1", "10.0.0.2"}), "nodes[1].hostname"},
		{"duplicate BMC", batchBody(id, ok, [2]string{"n2", "10.0.0.1"}), "nodes[1].ipmi_ip"},
		{"bad ip", batchBody(id, ok, [2]string{"n2", "300.0.0.1"}), "nodes[1].ipmi_ip"},
		{"hostname missing", batchBody(id, [2]string{"", "10.0.0.1"}), "nodes[0].hostname"},
		{"site missing", batchBody("", ok), "site_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(operatorRole, http.MethodPost, onboardings+"/batch", tt.body), 422, tt.fld)
		})
	}
	big := make([][2]string, 1001)
	for i := range big {
		big[i] = [2]string{"h" + strings.Repeat("x", i%50) + string(rune('a'+i%26)), "10.0.0.1"}
	}
	expect(t, e.do(operatorRole, http.MethodPost, onboardings+"/batch", batchBody(id, big...)), 422, "nodes")
	e.assertNoRuns()
}

func TestGetAndListOnboardings(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	done := e.onboard(a, "n1", "10.0.0.1")
	failed := e.onboard(b, "bad-1", "10.0.0.2")
	e.waitRun(done, lifecycle.JobCompleted)
	e.waitRun(failed, lifecycle.JobFailedManualIntervention)
	r := e.do(viewerRole, http.MethodGet, onboardings+"/"+done, nil)
	expect(t, r, http.StatusOK, "")
	var view struct {
		Onboarding lifecycle.Run
		Events     []lifecycle.RunEvent
	}
	r.decode(t, &view)
	if view.Onboarding.Status != lifecycle.JobCompleted || len(view.Events) < 2 {
		t.Errorf("view = %+v", view)
	}
	expect(t, e.do(viewerRole, http.MethodGet, onboardings+"/nope", nil), 404, "")
	br := e.do(operatorRole, http.MethodPost, onboardings+"/batch", batchBody(a, [2]string{"n3", "10.0.0.3"}))
	var bo struct {
		BatchID string `json:"batch_id"`
	}
	br.decode(t, &bo)
	list := func(q string) []string {
		r := e.do(viewerRole, http.MethodGet, onboardings+q, nil)
		expect(t, r, http.StatusOK, "")
		var out struct{ Onboardings []lifecycle.Run }
		r.decode(t, &out)
		var hosts []string
		for _, run := range out.Onboardings {
			hosts = append(hosts, run.Hostname)
		}
		return hosts
	}
	for q, want := range map[string][]string{
		"":                                   {"n1", "bad-1", "n3"},
		"?site_id=" + b:                      {"bad-1"},
		"?status=failed_manual_intervention": {"bad-1"},
		"?status=completed,failed_retryable&site_id=" + b: nil,
		"?batch_id=" + bo.BatchID:                         {"n3"},
	} {
		if d := cmp.Diff(want, list(q)); d != "" {
			t.Errorf("list%s (-want +got):\n%s", q, d)
		}
	}
	expect(t, e.do(viewerRole, http.MethodGet, onboardings+"?status=failed", nil), 422, "status")
	expect(t, e.do(viewerRole, http.MethodGet, onboardings+"?batch_id=nope", nil), 404, "")
	var agg struct{ Batch *lifecycle.BatchSummary }
	e.do(viewerRole, http.MethodGet, onboardings+"?batch_id="+bo.BatchID, nil).decode(t, &agg)
	if agg.Batch == nil || agg.Batch.Total != 1 || agg.Batch.Status == "" {
		t.Errorf("a batch listing carries the batch's aggregate status: %+v", agg.Batch)
	}
}
