package agentflow

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// tamperer sits between the real API and the agent: it rewrites delivered
// tasks with edit and records every result the agent posts.
type tamperer struct {
	mu      sync.Mutex
	edit    func(e *agentenv.Env, t *wire.Task, delivered int) bool // false: pass unchanged
	env     *agentenv.Env
	n       int
	results []wire.Result
	last    []byte
}

func (tp *tamperer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/result") {
			b, _ := io.ReadAll(r.Body)
			var res wire.Result
			json.Unmarshal(b, &res)
			tp.mu.Lock()
			tp.results = append(tp.results, res)
			tp.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/tasks/wait") {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		status, body := tp.rewrite(rec)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	})
}

// rewrite edits a delivered task, or offers edit the last delivery again
// on an idle poll (a replay when edit says so).
func (tp *tamperer) rewrite(rec *httptest.ResponseRecorder) (int, []byte) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var t wire.Task
	switch {
	case rec.Code == http.StatusOK:
		json.Unmarshal(rec.Body.Bytes(), &t)
		tp.n++
	case tp.last != nil:
		json.Unmarshal(tp.last, &t)
	default:
		return rec.Code, rec.Body.Bytes()
	}
	if !tp.edit(tp.env, &t, tp.n) {
		if rec.Code == http.StatusOK {
			tp.last = rec.Body.Bytes()
		}
		return rec.Code, rec.Body.Bytes()
	}
	tp.last, _ = json.Marshal(t)
	return http.StatusOK, tp.last
}

func (tp *tamperer) rejections() []wire.Result {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out []wire.Result
	for _, r := range tp.results {
		if r.Rejected {
			out = append(out, r)
		}
	}
	return out
}

func TestAgentRefusesBadTasks(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(e *agentenv.Env, t *wire.Task, delivered int) bool
		skew     time.Duration
		wantRuns int32
		reason   string
	}{
		{"tampered signature", func(_ *agentenv.Env, t *wire.Task, _ int) bool {
			t.Payload = []byte(`{"injected":true}`)
			return true
		}, 0, 0, "bad signature"},
		{"another node's task", func(e *agentenv.Env, t *wire.Task, _ int) bool {
			t.NodeID = "node-other"
			t.Signature = e.PKI.SignTask(wire.SigningPayload(*t))
			return true
		}, 0, 0, "for node"},
		{"expired task", func(*agentenv.Env, *wire.Task, int) bool { return false }, 2 * time.Hour, 0, "expired"},
		{"replayed sequence", replayOnce(), 0, 1, "already used"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp := &tamperer{edit: tc.edit}
			e := agentenv.New(t, agentenv.Options{Wrap: tp.wrap})
			tp.env = e
			node := e.Node(lifecycle.NodeEnrolling)
			h := &counter{}
			a := startAgent(t, e, node, h, tc.skew)
			eventually(t, "enrollment", func() bool { n, _ := e.Store.GetNode(e.Ctx, node); return n.EnrolledAt != nil })
			e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
			eventually(t, "a refusal reported to the daemon", func() bool { return len(tp.rejections()) > 0 })
			if got := h.runs.Load(); got != tc.wantRuns {
				t.Errorf("handler ran %d times, want %d", got, tc.wantRuns)
			}
			if r := tp.rejections()[0]; r.Success || !strings.Contains(r.Message, tc.reason) {
				t.Errorf("refusal %+v, want a failure naming %q", r, tc.reason)
			}
			if a.Stats().Rejected == 0 {
				t.Error("agent did not count the refusal")
			}
		})
	}
}

// replayOnce passes the first delivery through and answers the next idle
// poll with that same task, unchanged and validly signed, once.
func replayOnce() func(*agentenv.Env, *wire.Task, int) bool {
	calls := 0
	return func(*agentenv.Env, *wire.Task, int) bool {
		calls++
		return calls == 2
	}
}
