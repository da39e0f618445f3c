package gpu

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// AMDXGMINoErrors is amd-smi's XGMI error status of a link with none.
const AMDXGMINoErrors = "AMDSMI_XGMI_STATUS_NO_ERRORS"

// AMDXGMIEntry is one amd-smi metric --xgmi-err --ecc-blocks --json
// entry: xgmi_err is the status's enum name or "N/A"; ecc_blocks is an
// object of RAS blocks, each with its counts, or "N/A".
type AMDXGMIEntry struct {
	GPU       int             `json:"gpu"`
	XGMIErr   json.RawMessage `json:"xgmi_err"`
	ECCBlocks json.RawMessage `json:"ecc_blocks"`
}

// Status is the XGMI error status; "" when unknown.
func (e AMDXGMIEntry) Status() string {
	var s string
	if json.Unmarshal(e.XGMIErr, &s) != nil {
		return ""
	}
	return text(s)
}

// WAFL is the XGMI_WAFL block's correctable and uncorrectable error
// counts; nil when the block or a count is not reported.
func (e AMDXGMIEntry) WAFL() (correctable, uncorrectable *int64) {
	var blocks map[string]struct {
		Correctable   amdCount `json:"correctable_count"`
		Uncorrectable amdCount `json:"uncorrectable_count"`
	}
	if json.Unmarshal(e.ECCBlocks, &blocks) != nil {
		return nil, nil
	}
	b := blocks["XGMI_WAFL"]
	return b.Correctable.N, b.Uncorrectable.N
}

// AMDIsolationEntry is one amd-smi static --process-isolation --json
// entry: "Enabled", "Disabled" or "N/A".
type AMDIsolationEntry struct {
	GPU              int    `json:"gpu"`
	ProcessIsolation string `json:"process_isolation"`
}

// amdExtras reads what older amd-smi releases may not offer (XGMI error
// status and block counts, process isolation) into devs, each query on
// its own: one a release does not know leaves its values unknown and
// says so, as a check, instead of failing the inventory.
func (a AMD) amdExtras(ctx context.Context, devs []Device) []wire.Check {
	var checks []wire.Check
	var xgmi []AMDXGMIEntry
	if err := a.json(ctx, &xgmi, "metric", "--xgmi-err", "--ecc-blocks"); err != nil {
		checks = append(checks, wire.Check{Name: "amd_fields", Passed: true, Reason: "XGMI error status and counts unknown (not judged): " + err.Error()})
	}
	var iso []AMDIsolationEntry
	if err := a.json(ctx, &iso, "static", "--process-isolation"); err != nil {
		checks = append(checks, wire.Check{Name: "amd_fields", Passed: true, Reason: "process isolation unknown (not judged): " + err.Error()})
	}
	for i := range devs {
		s := &devs[i].State
		for _, x := range xgmi {
			if x.GPU == devs[i].ID.Index {
				s.XGMIErrorStatus = x.Status()
				s.XGMICorrectableCount, s.XGMIUncorrectableCount = x.WAFL()
			}
		}
		for _, p := range iso {
			if p.GPU == devs[i].ID.Index {
				s.ProcessIsolation = text(p.ProcessIsolation)
			}
		}
	}
	return checks
}

// xgmiHistory judges a GPU's XGMI reading as the tenancy left it: an
// error status or an uncorrectable XGMI_WAFL count fails the GPU (the
// links of its hive carried corrupted traffic; there is no DCGM to look
// deeper); correctable counts are events.
func xgmiHistory(s wire.GPUState) (fail, events []string) {
	if st := s.XGMIErrorStatus; st != "" && st != AMDXGMINoErrors {
		fail = append(fail, "XGMI error status "+st)
	}
	if n := s.XGMIUncorrectableCount; n != nil && *n > 0 {
		fail = append(fail, fmt.Sprintf("%d uncorrectable XGMI error(s)", *n))
	}
	if n := s.XGMICorrectableCount; n != nil && *n > 0 {
		events = append(events, fmt.Sprintf("%d correctable XGMI error(s)", *n))
	}
	return fail, events
}
