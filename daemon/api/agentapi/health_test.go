package agentapi_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

func healthEnv(t *testing.T) *agentenv.Env {
	return agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) {
		c.Health = health.New(health.Config{Store: c.Store.(health.Store), Clock: c.Clock})
	}})
}

func xidReport(seq uint64) wire.HealthReport {
	zero := int64(0)
	r := wire.HealthReport{BootID: "b1", Seq: seq, Interval: "60s", GPUCount: 1,
		GPUs: []wire.GPUHealth{{Vendor: wire.VendorNVIDIA, UUID: "GPU-1", State: wire.GPUState{ECCUncorrectedVolatile: &zero}}}}
	r.Xids = []wire.XidRecord{{Code: 79, Class: "reboot", BusID: "00000000:17:00.0", What: "GPU has fallen off the bus"}}
	return r
}

// A health report needs the certificate of the node it names: another
// node's is refused and stores nothing; the node's own is judged (an Xid
// 79 quarantines the active node); a replay is taken and ignored.
func TestHealthReportIdentityAndReplay(t *testing.T) {
	e := healthEnv(t)
	node, other := e.Node(lifecycle.NodeActive), e.Node(lifecycle.NodeActive)
	r := xidReport(1)
	r.TakenAt = e.Clock.Now()
	if st, p := post(t, e.Client(e.ClientCert(other)), e.URL+wire.HealthPath(node), r, nil); st != http.StatusForbidden {
		t.Fatalf("another node's certificate: %d %+v, want 403", st, p)
	}
	if _, err := e.Store.GetNodeHealth(e.Ctx, node); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("health after a refused report: %v", err)
	}
	c := e.Client(e.ClientCert(node))
	if st, p := post(t, c, e.URL+wire.HealthPath(node), r, nil); st != http.StatusNoContent {
		t.Fatalf("report: %d %+v", st, p)
	}
	n, _ := e.Store.GetNode(e.Ctx, node)
	h, err := e.Store.GetNodeHealth(e.Ctx, node)
	if err != nil || h.Verdict != lifecycle.HealthCritical || n.Status != lifecycle.NodeQuarantined {
		t.Fatalf("after Xid 79: %+v %v, node %s", h, err, n.Status)
	}
	if st, _ := post(t, c, e.URL+wire.HealthPath(node), r, nil); st != http.StatusNoContent {
		t.Fatalf("replay: %d, want 204", st)
	}
	if again, _ := e.Store.GetNodeHealth(e.Ctx, node); !again.JudgedAt.Equal(h.JudgedAt) || again.Seq != 1 {
		t.Fatalf("a replay changed the record: %+v", again)
	}
}

// A bad body is a problem naming the member, and an oversized one is
// refused at its bound unread; neither stores anything.
func TestHealthReportBadInput(t *testing.T) {
	e := healthEnv(t)
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(e.ClientCert(node))
	url := e.URL + wire.HealthPath(node)
	for name, body := range map[string]string{
		"seq":      `{"boot_id":"b1","seq":"one","taken_at":"2026-01-02T03:04:05Z","interval":"60s","gpu_count":1,"gpus":[]}`,
		"interval": `{"boot_id":"b1","seq":1,"taken_at":"2026-01-02T03:04:05Z","interval":"often","gpu_count":1,"gpus":[]}`,
		"surplus":  `{"boot_id":"b1","seq":1,"surplus":true}`,
	} {
		resp, err := c.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d, want 400 or 422", name, resp.StatusCode)
		}
	}
	st, p := post(t, c, url, map[string]any{"boot_id": "b1", "seq": 1, "taken_at": "2026-01-02T03:04:05Z", "interval": "soon", "gpu_count": 1}, nil)
	if st != http.StatusBadRequest && st != http.StatusUnprocessableEntity || p.Field != "interval" {
		t.Fatalf("bad interval: %d %+v, want the field interval", st, p)
	}
	big := bytes.Repeat([]byte(" "), 600<<10)
	resp, err := c.Post(url, "application/json", bytes.NewReader(append(big, []byte(`{}`)...)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("oversized report: %d, want 400 (the body is cut at its bound)", resp.StatusCode)
	}
	if _, err := e.Store.GetNodeHealth(e.Ctx, node); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("health after bad reports: %v", err)
	}
}
