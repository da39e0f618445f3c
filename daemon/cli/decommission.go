package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func init() { commands["node decommission"] = nodeDecommission }

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
	id, err := ref(ctx, pos[0])
	if err != nil {
		return err
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	q := answer.DecommissionRequest{Mode: lifecycle.DecommissionMode(*mode), Erase: lifecycle.EraseMode(*erase),
		StorageCleanup: lifecycle.StorageCleanup(*storage), Reason: s.reason}
	out, raw, err := c.Decommission(ctx, id, q, *key)
	if err != nil {
		return err
	}
	return s.show(raw, "DECOMMISSION MODE STATE", [][]string{{out.DecommissionID, string(out.Mode), string(out.Status)}})
}
