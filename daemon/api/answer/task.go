package answer

import (
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Task is one agent task of a run with the evidence its agent returned
// (the clean certificate of a scrub, cleanup or validation), as the agent
// sent it: the kind-specific part of a decommission's RunView.
type Task struct {
	ID         string              `json:"id"`
	Type       lifecycle.TaskType  `json:"type"`
	State      lifecycle.TaskState `json:"state"`
	Attempts   int                 `json:"attempts"`
	Success    *bool               `json:"success,omitempty"`
	Message    string              `json:"message,omitempty"`
	Evidence   json.RawMessage     `json:"evidence,omitempty"`
	FinishedAt *time.Time          `json:"finished_at,omitempty"`
	CreatedAt  time.Time           `json:"created_at"`
}

// TaskOf is the Task of agent task t.
func TaskOf(t lifecycle.AgentTask) Task {
	v := Task{ID: t.ID, Type: t.Type, State: t.State, Attempts: t.Attempts, CreatedAt: t.CreatedAt}
	if res := t.Result; res != nil {
		ok, at := res.Success, res.FinishedAt
		v.Success, v.Message, v.Evidence, v.FinishedAt = &ok, res.Message, res.Evidence, &at
	}
	return v
}
