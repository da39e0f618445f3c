package agent

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

type evidenceTask struct{ sawExec, sawPolicy bool }

func (e *evidenceTask) Run(_ context.Context, env task.Env, _ []byte) (task.Result, error) {
	e.sawExec, e.sawPolicy = env.Exec != nil, len(env.Policy.KeepUsers) == 1
	return task.Result{Evidence: &wire.Evidence{Task: "node.validate_clean", Checks: []wire.Check{{Name: "mounts", Reason: "nfs"}}}},
		errors.New("node.validate_clean: failed: [mounts]")
}

func TestFailedTaskResultCarriesItsEvidence(t *testing.T) {
	r := newRig(t, &faketransport.Transport{})
	h := &evidenceTask{}
	r.a.o.Registry.Register("node.validate_clean", h)
	r.a.o.Exec, r.a.o.Policy = fakeexec.New(nil), task.Policy{KeepUsers: []string{"ubuntu"}}
	res, _ := r.a.execute(context.Background(), slog.New(slog.DiscardHandler), wire.Task{Seq: 7, Type: "node.validate_clean"})
	if res.Success || res.Evidence == nil || res.Evidence.Checks[0].Name != "mounts" || res.Message != "node.validate_clean: failed: [mounts]" {
		t.Errorf("result = %+v", res)
	}
	if !h.sawExec || !h.sawPolicy {
		t.Error("the task env lacks the exec seam or the policy")
	}
}
