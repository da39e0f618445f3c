package agentapi_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// stuckStore is a store whose calls named in stuck never return until
// the test ends, whatever their context says: a store call that ignores
// its deadline (the dqlite client retrying a leader that never answers).
type stuckStore struct {
	agentapi.Store
	stuck   map[string]bool
	release chan struct{}
}

var errReleased = errors.New("released at the end of the test")

func (s stuckStore) hang(name string) error {
	if !s.stuck[name] {
		return nil
	}
	<-s.release
	return errReleased
}

func (s stuckStore) GetNode(ctx context.Context, id string) (lifecycle.Node, error) {
	if err := s.hang("GetNode"); err != nil {
		return lifecycle.Node{}, err
	}
	return s.Store.GetNode(ctx, id)
}

func (s stuckStore) ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (lifecycle.EnrollmentToken, error) {
	if err := s.hang("ConsumeEnrollmentToken"); err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return s.Store.ConsumeEnrollmentToken(ctx, hash, nodeID, keyID)
}

func (s stuckStore) ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (lifecycle.AgentTask, bool, error) {
	if err := s.hang("ClaimTask"); err != nil {
		return lifecycle.AgentTask{}, false, err
	}
	return s.Store.ClaimTask(ctx, nodeID, lease)
}

// TestStuckStoreAnswers503WithinStoreTimeout: whichever store call of an
// agent route hangs (the enrollment's token, a poll's authentication or
// its claim, a result's authentication), the agent is answered 503
// problem+json with Retry-After within StoreTimeout, not held until the
// listener's write timeout breaks the connection.
func TestStuckStoreAnswers503WithinStoreTimeout(t *testing.T) {
	const bound = 500 * time.Millisecond
	for _, stuck := range []string{"ConsumeEnrollmentToken", "GetNode", "ClaimTask"} {
		t.Run(stuck, func(t *testing.T) {
			st := stuckStore{stuck: map[string]bool{stuck: true}, release: make(chan struct{})}
			e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) {
				st.Store, c.Store, c.StoreTimeout = c.Store, &st, bound
			}})
			t.Cleanup(func() { close(st.release) })
			node := e.Node(lifecycle.NodeActive)
			tok := e.Token(node)
			agent := e.Client(e.ClientCert(node))
			csr, _ := e.CSR()
			enroll := func() (*http.Response, error) {
				return agent.Post(e.URL+wire.RouteEnroll, "application/json",
					jsonBody(wire.EnrollRequest{NodeID: node, Token: tok, CSR: csr}))
			}
			poll := func() (*http.Response, error) { return agent.Get(e.URL + wire.WaitPath(node) + "?timeout=1s") }
			result := func() (*http.Response, error) {
				return agent.Post(e.URL+wire.ResultPath(node, "task-1"), "application/json", jsonBody(wire.Result{Seq: 1}))
			}
			type route struct {
				name string
				call func() (*http.Response, error)
			}
			routes := map[string][]route{"ConsumeEnrollmentToken": {{"enroll", enroll}},
				"GetNode": {{"poll", poll}, {"result", result}}, "ClaimTask": {{"poll", poll}}}
			for _, r := range routes[stuck] {
				name, call := r.name, r.call
				start := time.Now()
				resp, err := call()
				took := time.Since(start)
				if err != nil {
					t.Fatalf("%s with %s stuck: %v after %s", name, stuck, err, took)
				}
				resp.Body.Close()
				t.Logf("%s with %s stuck: %d Retry-After %q after %s", name, stuck, resp.StatusCode, resp.Header.Get("Retry-After"), took.Round(time.Millisecond))
				if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
					!strings.HasPrefix(resp.Header.Get("Content-Type"), wire.ProblemContentType) || took > bound+time.Second {
					t.Errorf("%s with %s stuck: %d %v after %s, want 503 problem+json with Retry-After within %s",
						name, stuck, resp.StatusCode, resp.Header, took, bound)
				}
			}
		})
	}
}
