package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

func init() {
	commands["node decommission"] = nodeDecommission
	commands["decommission get"] = decommissionGet
	commands["decommission list"] = decommissionList
	commands["decommission watch"] = decommissionWatch
	for _, path := range recoveryVerbs {
		commands["decommission "+path] = decomRecoveryCommand(path)
	}
}

// decomRun is a decommission as the CLI shows it.
type decomRun struct {
	ID             string
	NodeID         string `json:"node_id"`
	Hostname       string
	Mode           string
	Status         string
	CurrentStage   string `json:"current_stage"`
	CurrentAttempt int    `json:"current_attempt"`
	FailureClass   string `json:"failure_class"`
	Recommended    string `json:"recommended_action"`
	ErrorMessage   string `json:"error_message"`
}

const decomHeader = "DECOMMISSION HOSTNAME MODE STATE STAGE ATTEMPT FAILURE NEXT"

func (r decomRun) row() []string {
	return []string{r.ID, r.Hostname, r.Mode, r.Status, dash(r.CurrentStage), fmt.Sprint(r.CurrentAttempt),
		dash(r.FailureClass), dash(r.Recommended)}
}

// The values the decommission flags take (seed 001 §5.1).
var (
	decomModes   = []string{"soft_reset", "reimage", "full_decommission", "storage_cleanup"}
	eraseModes   = []string{"none", "quick", "secure"}
	storageModes = []string{"none", "local", "weka", "all", "drives"}
)

// oneOf refuses a flag value outside vals, naming the value and the choices.
func oneOf(flag, v string, vals []string, optional bool) error {
	if (v == "" && optional) || slices.Contains(vals, v) {
		return nil
	}
	return usagef("--%s %q is not one of %s", flag, v, strings.Join(vals, ", "))
}

// nodeDecommission starts a decommission: maas-sidecar node decommission
// NODE --mode MODE [--erase E] [--storage-cleanup S] --reason R.
func nodeDecommission(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	mode := fs.String("mode", "", "soft_reset, reimage, full_decommission or storage_cleanup (required)")
	erase := fs.String("erase", "", "MAAS erase on release: none, quick or secure (reimage, full_decommission)")
	storage := fs.String("storage-cleanup", "", "none, local, weka, all or drives (soft_reset, reimage, storage_cleanup)")
	key := fs.String("idempotency-key", "", "makes a retried request return the first result")
	fs.StringVar(&s.reason, "reason", "", "why, e.g. tenant_transition (required; recorded in the audit log)")
	ref := s.nodeRef()
	pos, err := s.parse(args, 1, "NODE")
	if err != nil {
		return err
	}
	for _, c := range []error{oneOf("mode", *mode, decomModes, false), oneOf("erase", *erase, eraseModes, true),
		oneOf("storage-cleanup", *storage, storageModes, true)} {
		if c != nil {
			return c
		}
	}
	if s.reason == "" {
		return usagef("--reason is required")
	}
	body := map[string]string{"mode": *mode, "reason": s.reason}
	if *erase != "" {
		body["erase"] = *erase
	}
	if *storage != "" {
		body["storage_cleanup"] = *storage
	}
	id, err := ref(ctx, pos[0])
	if err != nil {
		return err
	}
	var out struct {
		ID     string `json:"decommission_id"`
		Mode   string
		Status string
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+url.PathEscape(id)+"/decommission", body, &out,
		map[string]string{"Idempotency-Key": *key})
	if err != nil {
		return err
	}
	return s.show(raw, "DECOMMISSION MODE STATE", [][]string{{out.ID, out.Mode, out.Status}})
}

func decommissionList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	q := url.Values{}
	vals := map[string]*string{"node_id": fs.String("node", "", "node id"), "site_id": fs.String("site", "", "site id"),
		"mode": fs.String("mode", "", "one mode"), "status": fs.String("status", "", "comma-separated job states")}
	limit := limitFlag(fs)
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if err := oneOf("mode", *vals["mode"], decomModes, true); err != nil {
		return err
	}
	for k, v := range vals {
		if *v != "" {
			q.Set(k, *v)
		}
	}
	items, raw, err := s.listAll(ctx, admin+"/decommissions", q, "decommissions", *limit)
	if err != nil {
		return err
	}
	runs, err := decodeAll[decomRun](items)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, r := range runs {
		rows = append(rows, r.row())
	}
	return s.show(raw, decomHeader, rows)
}
