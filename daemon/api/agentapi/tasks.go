package agentapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// wait is the long poll and the heartbeat: it records contact, then
// returns the node's next task, signed, or 204 when none came within the
// wait. An enqueue for the node wakes it at once.
func (a *API) wait(w http.ResponseWriter, r *http.Request, n lifecycle.Node) {
	const op = "agentapi.wait"
	d, err := a.waitFor(r, op)
	if err == nil {
		err = a.touch(r, n.ID)
	}
	if err != nil {
		writeProblem(w, err)
		return
	}
	a.cfg.Metrics.heartbeat()
	// The listener's write timeout counts from the request; a long poll
	// holds its answer for up to d, so it moves its own deadline. Both
	// are wall-clock time, as the connection's deadlines are: a poll timed
	// on another clock could outlive its write deadline.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d + a.cfg.WriteTimeout))
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		woken, unsubscribe := a.cfg.Notifier.Subscribe(n.ID)
		t, ok, err := a.cfg.Store.ClaimTask(r.Context(), n.ID, a.cfg.Lease)
		if err != nil || ok {
			unsubscribe()
			a.answerTask(w, r, t, err)
			return
		}
		select {
		case <-woken:
			continue
		case <-timer.C:
		case <-r.Context().Done():
		}
		unsubscribe()
		w.WriteHeader(http.StatusNoContent)
		return
	}
}

func (a *API) waitFor(r *http.Request, op string) (time.Duration, error) {
	s := r.URL.Query().Get(wire.WaitTimeoutParam)
	if s == "" {
		return a.cfg.DefaultWait, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, lifecycle.Invalid(op, wire.WaitTimeoutParam, "timeout must be a non-negative duration")
	}
	return min(max(d, a.cfg.MinWait), a.cfg.MaxWait), nil
}

// answerTask signs and sends a dispatched task, bound to the serial of
// the certificate that claimed it (the node's current one, or the previous
// one within the renewal overlap, as requireNode admitted): the agent runs
// it only under that certificate, so a reimaged host refuses tasks issued
// to its previous life. A payload that cannot be resolved now answers 503;
// the lease lapses and the task is sent again.
func (a *API) answerTask(w http.ResponseWriter, r *http.Request, t lifecycle.AgentTask, err error) {
	payload := t.Payload
	if err == nil && a.cfg.Resolve != nil {
		payload, err = a.cfg.Resolve(r.Context(), t)
		if lifecycle.ErrorCode(err) == lifecycle.CodeForbidden {
			err = a.refuseTask(r.Context(), t, err)
			if err == nil {
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
	}
	if err != nil {
		writeProblem(w, err)
		return
	}
	out := wire.Task{ID: t.ID, NodeID: t.NodeID, Type: string(t.Type), Payload: payload, ExpiresAt: t.ExpiresAt, Seq: t.Seq,
		CertSerial: serialOf(r)}
	out.Signature = a.cfg.Signer.SignTask(wire.SigningPayload(out))
	writeJSON(w, http.StatusOK, out)
}

// result records the agent's outcome for a dispatched task.
func (a *API) result(w http.ResponseWriter, r *http.Request, n lifecycle.Node) {
	const op = "agentapi.result"
	var res wire.Result
	if err := decode(r, op, &res); err != nil {
		writeProblem(w, err)
		return
	}
	details := res.Details
	if res.Rejected {
		details = map[string]string{"rejected": "true"}
		for k, v := range res.Details {
			details[k] = v
		}
	}
	taskID := mux.Vars(r)["task_id"]
	evidence, err := evidenceOf(op, res)
	var t lifecycle.AgentTask
	if err == nil {
		t, err = a.cfg.Store.CompleteTask(r.Context(), n.ID, taskID, res.Seq, lifecycle.TaskResult{
			Success: res.Success && !res.Rejected, Message: res.Message, Details: details, FinishedAt: res.FinishedAt,
			Evidence: evidence,
		})
	}
	if err != nil {
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.ResultAck{TaskID: t.ID, State: string(t.State)})
}

// evidenceOf is the result's evidence as the store keeps it (raw JSON),
// nil when the agent sent none.
func evidenceOf(op string, res wire.Result) (json.RawMessage, error) {
	if res.Evidence == nil {
		return nil, nil
	}
	b, err := json.Marshal(res.Evidence)
	if err != nil {
		return nil, lifecycle.Invalid(op, "evidence", "evidence cannot be encoded: %v", err)
	}
	return b, nil
}
