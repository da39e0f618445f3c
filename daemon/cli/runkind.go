package cli

import (
	"fmt"

	"bytes"
	"encoding/json"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runKind is what the run verbs of one kind differ in: the table's
// columns, the list filters, and how watch takes its runs and shows them.
type runKind struct {
	answer.RunKind
	header  string
	row     func(r run) []string
	filters []filter
	// batch: watch takes --batch ID instead of one run.
	batch bool
	// progress shows one change of the watched runs; raw is the answer
	// read (one run's view when not watching a batch).
	progress func(s *session, k *runKind, runs []run, raw []byte) error
}

// filter is a list flag and the query parameter it sets.
type filter struct {
	flag, param, usage string
	choices            []string // when not nil: the values it takes
}

// runKinds are the kinds the run verbs are made for.
var runKinds = []*runKind{onboardingKind, decommissionKind, repairKind}

var onboardingKind = &runKind{
	RunKind: answer.Onboarding,
	header:  "ONBOARDING HOSTNAME STATE STAGE ATTEMPT FAILURE NEXT",
	row: func(r run) []string {
		return []string{r.ID, r.Hostname, r.Status, dash(r.CurrentStage), fmt.Sprint(r.CurrentAttempt), dash(r.FailureClass), dash(r.Recommended)}
	},
	filters: []filter{{"batch", "batch_id", "batch id", nil}, {"site", "site_id", "site id", nil},
		{"status", "status", "comma-separated job states", nil}},
	batch:    true,
	progress: batchProgress,
}

var decommissionKind = &runKind{
	RunKind: answer.Decommission,
	header:  "DECOMMISSION HOSTNAME MODE STATE STAGE ATTEMPT FAILURE NEXT",
	row: func(r run) []string {
		return []string{r.ID, r.Hostname, r.Mode, r.Status, dash(r.CurrentStage), fmt.Sprint(r.CurrentAttempt),
			dash(r.FailureClass), dash(r.Recommended)}
	},
	filters: []filter{{"node", "node_id", "node id", nil}, {"site", "site_id", "site id", nil},
		{"mode", "mode", "one mode", decomModes}, {"status", "status", "comma-separated job states", nil}},
	progress: runProgress,
}

// run is a run as the tables and onboarding watch's JSON lines show it.
type run struct {
	ID             string
	Hostname       string
	Mode           string `json:"-"`
	Status         string
	CurrentStage   string `json:"current_stage"`
	CurrentAttempt int    `json:"current_attempt"`
	FailureClass   string `json:"failure_class"`
	Recommended    string `json:"recommended_action"`
	ErrorMessage   string `json:"error_message"`
}

func runOf(r lifecycle.Run) run {
	return run{ID: r.ID, Hostname: r.Hostname, Mode: string(r.Mode), Status: string(r.Status), CurrentStage: string(r.CurrentStage),
		CurrentAttempt: r.CurrentAttempt, FailureClass: string(r.FailureClass), Recommended: string(r.RecommendedAction),
		ErrorMessage: r.ErrorMessage}
}

func runsOf(rs []lifecycle.Run) []run {
	out := make([]run, len(rs))
	for i, r := range rs {
		out[i] = runOf(r)
	}
	return out
}

// compact is raw JSON on one line (raw itself when it does not parse).
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
