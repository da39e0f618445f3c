package lifecycle

import "time"

// Defaults of the decommission waits (seconds): a secure erase of large
// drives takes hours, a power-off minutes, an agent task a few minutes.
const (
	defaultReleaseTimeout   = 4 * 3600
	defaultPowerOffTimeout  = 600
	defaultAgentTaskTimeout = 900
	defaultRebootTimeout    = 1200
)

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// NewDecommissionRun returns the pending run of decommission request req
// on node n, with id, requested by requestedBy at now. Empty erase and
// storage cleanup become none. Errors: invalid for a bad request (naming
// the field), conflict when the node is not active, offline or
// quarantined, or a MAAS mode names a node without a MAAS machine.
// The caller stores it (RunStore.CreateRun) and submits it to the runner;
// refusing a node already owned by an in-flight run is the caller's job.
func NewDecommissionRun(id string, n Node, req DecommissionRequest, requestedBy string, now time.Time) (Run, error) {
	const op = "lifecycle.NewDecommissionRun"
	if err := req.Validate(); err != nil {
		return Run{}, err
	}
	if !CanDecommission(n.Status) {
		return Run{}, Errorf(CodeConflict, op, "node %s is %s; a decommission starts from active, offline or quarantined", n.ID, n.Status)
	}
	if req.Mode.TouchesMaas() && n.MaasSystemID == "" {
		return Run{}, Errorf(CodeConflict, op, "node %s has no MAAS machine; %s needs one", n.ID, req.Mode)
	}
	if req.Erase == "" {
		req.Erase = EraseNone
	}
	if req.Storage == "" {
		req.Storage = StorageNone
	}
	return Run{ID: id, Kind: RunDecommission, Mode: req.Mode, Erase: req.Erase, StorageCleanup: req.Storage,
		Reason: req.Reason, SiteID: n.SiteID, NodeID: n.ID, Hostname: n.Hostname, IPMIIP: n.IPMIIP, SKU: n.SKU,
		MaasSystemID: n.MaasSystemID, Status: JobPending, RequestedBy: requestedBy, RequestedAt: now}, nil
}
