package answer

import (
	"encoding/json"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// RunView answers GET /<collection>/{id}: the run under its kind's name,
// its recent stage events (oldest first) and, for a kind whose agent
// returns evidence (a decommission), its agent tasks. Tasks nil: the
// kind has none, and the answer holds no "tasks".
type RunView struct {
	Run    lifecycle.Run
	Events []lifecycle.RunEvent
	Tasks  []Task
	// Certificate is the run's signed clean certificate (a DSSE
	// envelope) once issued, for a kind that serves it (a decommission).
	Certificate json.RawMessage
}

// MarshalJSON writes the run under its kind's name.
func (v RunView) MarshalJSON() ([]byte, error) {
	k, ok := KindOf(v.Run.Kind)
	if !ok {
		return nil, fmt.Errorf("answer: run %s: kind %q has no routes", v.Run.ID, v.Run.Kind)
	}
	ms := []member{{k.Name, v.Run}, {"events", v.Events}}
	if v.Tasks != nil {
		ms = append(ms, member{"tasks", v.Tasks})
	}
	if len(v.Certificate) > 0 {
		ms = append(ms, member{"certificate", v.Certificate})
	}
	return object(ms...)
}

// UnmarshalJSON reads a RunView of any kind.
func (v *RunView) UnmarshalJSON(b []byte) error {
	m, err := members(b)
	if err != nil {
		return err
	}
	k, err := runKey(m, false)
	if err != nil {
		return err
	}
	*v = RunView{}
	for key, dst := range map[string]any{k.Name: &v.Run, "events": &v.Events, "tasks": &v.Tasks, "certificate": &v.Certificate} {
		if err := decodeMember(m, key, dst); err != nil {
			return err
		}
	}
	return nil
}

// ActionRequest is the body of a recovery route: the reason is required
// (at most 512 characters) and goes into the audit entry.
type ActionRequest struct {
	Reason string `json:"reason"`
}

// ActionResult answers a recovery route: the run under its kind's name,
// the action, and no_op when the action's effect already held.
type ActionResult struct {
	Run    lifecycle.Run
	Action lifecycle.Action
	NoOp   bool
}

// MarshalJSON writes the run under its kind's name.
func (a ActionResult) MarshalJSON() ([]byte, error) {
	k, ok := KindOf(a.Run.Kind)
	if !ok {
		return nil, fmt.Errorf("answer: run %s: kind %q has no routes", a.Run.ID, a.Run.Kind)
	}
	return object(member{k.Name, a.Run}, member{"action", a.Action}, member{"no_op", a.NoOp})
}

// UnmarshalJSON reads an ActionResult of any kind.
func (a *ActionResult) UnmarshalJSON(b []byte) error {
	m, err := members(b)
	if err != nil {
		return err
	}
	k, err := runKey(m, false)
	if err != nil {
		return err
	}
	*a = ActionResult{}
	for key, dst := range map[string]any{k.Name: &a.Run, "action": &a.Action, "no_op": &a.NoOp} {
		if err := decodeMember(m, key, dst); err != nil {
			return err
		}
	}
	return nil
}

// RunList answers GET /<collection>: one page of runs of one kind under
// its collection's name, next_cursor unless it is the last page, and a
// batch's aggregate when the onboardings were asked for by batch alone.
type RunList struct {
	Kind       RunKind
	Runs       []lifecycle.Run
	NextCursor string
	Batch      *lifecycle.BatchSummary
}

// MarshalJSON writes the page with its members in name order.
func (l RunList) MarshalJSON() ([]byte, error) {
	if l.Kind.Collection == "" {
		return nil, fmt.Errorf("answer: a run list without a kind")
	}
	m := map[string]any{l.Kind.Collection: l.Runs}
	if l.NextCursor != "" {
		m["next_cursor"] = l.NextCursor
	}
	if l.Batch != nil {
		m["batch"] = l.Batch
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a page of l.Kind's runs, or of the kind whose
// collection the page holds when l.Kind is unset.
func (l *RunList) UnmarshalJSON(b []byte) error {
	m, err := members(b)
	if err != nil {
		return err
	}
	k := l.Kind
	if k.Collection == "" {
		if k, err = runKey(m, true); err != nil {
			return err
		}
	}
	*l = RunList{Kind: k}
	for key, dst := range map[string]any{k.Collection: &l.Runs, "next_cursor": &l.NextCursor, "batch": &l.Batch} {
		if err := decodeMember(m, key, dst); err != nil {
			return err
		}
	}
	return nil
}
