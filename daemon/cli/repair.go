package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var repairKind = &runKind{
	RunKind: answer.Repair,
	header:  "REPAIR HOSTNAME STATE STAGE ATTEMPT FAILURE NEXT",
	row: func(r run) []string {
		return []string{r.ID, r.Hostname, r.Status, dash(r.CurrentStage), fmt.Sprint(r.CurrentAttempt), dash(r.FailureClass), dash(r.Recommended)}
	},
	filters: []filter{{"node", "node_id", "node id", nil}, {"site", "site_id", "site id", nil},
		{"status", "status", "comma-separated job states", nil}},
	progress: runProgress,
}

func init() {
	commands["repair start"] = repairStart
	commands["repair rma"] = repairRMA
	commands["node replace-part"] = nodeReplacePart
	commands["part history"] = partHistory
}

// repairStart starts a repair run ("repair start NODE --reason ...";
// audited): diagnostics of a quarantined node, the acceptance check of a
// repair_required one.
func repairStart(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	id, err := s.auditedNode(ctx, args, s.nodeRef())
	if err != nil {
		return err
	}
	var out answer.RepairResult
	raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+id+"/repair", map[string]string{"reason": s.reason}, &out, nil)
	if err != nil {
		return err
	}
	return s.show(raw, "REPAIR NODE STAGE STATE", [][]string{{out.RepairID, out.NodeID, string(out.Stage), string(out.Status)}})
}

// nodeReplacePart records a part replaced on a repair_required node
// ("node replace-part NODE --old-serial S --new-serial S --kind gpu
// --ticket T --reason ..."; audited) and starts its acceptance run.
func nodeReplacePart(ctx context.Context, s *session, args []string) error {
	var q lifecycle.PartReplacement
	f := s.flags()
	f.StringVar(&q.OldSerial, "old-serial", "", "serial of the part taken out (required)")
	f.StringVar(&q.NewSerial, "new-serial", "", "serial of the part put in (required)")
	f.StringVar((*string)(&q.Kind), "kind", "", "gpu, drive or other (required)")
	f.StringVar(&q.TicketID, "ticket", "", "the RMA or vendor ticket id (required)")
	f.StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	id, err := s.auditedNode(ctx, args, s.nodeRef())
	if err != nil {
		return err
	}
	q.Reason = s.reason
	var out answer.RepairResult
	raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+id+"/parts/replace", q, &out, nil)
	if err != nil {
		return err
	}
	return s.show(raw, "REPAIR NODE STAGE STATE", [][]string{{out.RepairID, out.NodeID, string(out.Stage), string(out.Status)}})
}

// repairRMA prints the RMA bundle of a repair run that found a failed
// part ("repair rma ID"), as JSON: the file a vendor's RMA asks for.
func repairRMA(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "REPAIR")
	if err != nil {
		return err
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/repairs/"+url.PathEscape(pos[0])+"/rma", nil, nil, nil)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err = s.env.Stdout.Write(buf.Bytes())
	return err
}

// partHistory shows a part's history by serial ("part history SERIAL").
func partHistory(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "SERIAL")
	if err != nil {
		return err
	}
	var out answer.PartHistory
	raw, err := s.call(ctx, http.MethodGet, admin+"/parts/"+url.PathEscape(pos[0])+"/history", nil, &out, nil)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, e := range out.Events {
		rows = append(rows, []string{e.At.UTC().Format("2006-01-02T15:04:05Z"), string(e.Kind), dash(e.NodeID), dash(e.Source),
			dash(e.RunID), dash(strings.TrimSpace(e.TicketID + " " + e.OtherSerial)), dash(e.Detail)})
	}
	return s.show(raw, "AT EVENT NODE SOURCE RUN TICKET/OTHER DETAIL", rows)
}
