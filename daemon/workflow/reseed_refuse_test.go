package workflow_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// tokenReads counts every read of a MAAS API key and every MAAS
// connection the resolver makes; the connection always fails.
type tokenReads struct {
	workflow.Secrets
	reads, connects atomic.Int32
}

func (c *tokenReads) MAASToken(context.Context, string) (lifecycle.Secret, error) {
	c.reads.Add(1)
	return lifecycle.Secret("ck:tk:ts"), nil
}

func (c *tokenReads) Connect(string, lifecycle.Secret) (workflow.MAAS, error) {
	c.connects.Add(1)
	return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "test", errors.New("MAAS down"))
}

// A node.hw_sync_reseed task naming another node's machine is failed at
// dispatch with the reason, logged and audited; no MAAS key is read and
// no machine token fetched, and the agent is sent nothing. The node's
// own machine still goes on to MAAS.
func TestReseedForAnotherNodesMachineRefused(t *testing.T) {
	src := &tokenReads{}
	var logs bytes.Buffer
	var resolver workflow.ReseedPayloads
	e := agentenv.New(t, agentenv.Options{Resolve: func(ctx context.Context, tk lifecycle.AgentTask) ([]byte, error) {
		return resolver.Resolve(ctx, tk)
	}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	resolver = workflow.ReseedPayloads{Deps: workflow.Deps{Store: e.Store, Secrets: src, Connector: src}}
	attacker, victim := e.Node(lifecycle.NodeActive), e.Node(lifecycle.NodeActive)
	bindMachine(t, e, attacker, "aaa111")
	bindMachine(t, e, victim, "bbb222")
	task := e.Enqueue(attacker, lifecycle.TaskHWSyncReseed, map[string]string{"site_id": agentenv.SiteID, "system_id": "bbb222"}, time.Hour)
	c := e.Client(e.ClientCert(attacker))
	if st := pollCode(t, c, e.URL+wire.WaitPath(attacker)+"?timeout=50ms"); st != http.StatusNoContent {
		t.Fatalf("poll with a refused task: %d, want 204 (nothing sent)", st)
	}
	if n, m := src.reads.Load(), src.connects.Load(); n != 0 || m != 0 {
		t.Fatalf("the refused task read the MAAS key %d times and connected %d times, want 0", n, m)
	}
	got, err := e.Store.GetTask(e.Ctx, task.ID)
	must(t, err)
	if got.State != lifecycle.TaskFailed || got.Result == nil || !strings.Contains(got.Result.Message, "bbb222") ||
		!strings.Contains(got.Result.Message, "not node "+attacker+"'s machine") {
		t.Fatalf("refused task = %s %+v, want failed naming the machine and the node", got.State, got.Result)
	}
	audits, err := e.Store.ListAudit(e.Ctx, lifecycle.AuditFilter{Action: "task.refused", TargetID: attacker})
	must(t, err)
	if len(audits) != 1 || audits[0].CorrelationIDs["task_id"] != task.ID || !strings.Contains(logs.String(), "agent task refused at dispatch") {
		t.Fatalf("audit %+v, log %q: want one entry and one line for the refusal", audits, logs.String())
	}
	e.Enqueue(attacker, lifecycle.TaskHWSyncReseed, map[string]string{"site_id": agentenv.SiteID, "system_id": "aaa111"}, time.Hour)
	if st := pollCode(t, c, e.URL+wire.WaitPath(attacker)+"?timeout=50ms"); st != http.StatusServiceUnavailable || src.connects.Load() != 1 {
		t.Fatalf("own machine: %d after %d connections, want the MAAS attempt (503 while it is down)", st, src.connects.Load())
	}
}

func bindMachine(t *testing.T, e *agentenv.Env, node, systemID string) {
	t.Helper()
	_, err := e.Store.UpdateNode(e.Ctx, node, func(n *lifecycle.Node) error { n.MaasSystemID = systemID; return nil })
	must(t, err)
}

func pollCode(t *testing.T, c *http.Client, url string) int {
	t.Helper()
	resp, err := c.Get(url)
	must(t, err)
	resp.Body.Close()
	return resp.StatusCode
}
