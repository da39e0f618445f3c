package gpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// The XGMI error status and the XGMI_WAFL block's counts, in the metric
// envelope; "N/A" for either is unknown, never clean.
func TestAMDXGMIParser(t *testing.T) {
	var x []AMDXGMIEntry
	if err := gpuArray([]byte(read(t, "amd-metric-xgmi.json")), &x); err != nil || len(x) != 3 {
		t.Fatalf("metric -x -k: %v, %d entries", err, len(x))
	}
	type got struct {
		Status       string
		Corr, Uncorr *int64
	}
	var all []got
	for _, e := range x {
		c, u := e.WAFL()
		all = append(all, got{e.Status(), c, u})
	}
	want := []got{{AMDXGMINoErrors, ptr[int64](0), ptr[int64](0)},
		{"AMDSMI_XGMI_STATUS_MULTIPLE_ERRORS", ptr[int64](12), ptr[int64](2)}, {"", nil, nil}}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("XGMI readings (-want +got):\n%s", diff)
	}
}

// Process isolation after amd-smi's warning line; the set and reset
// answers name their result under their own keys.
func TestAMDIsolationAndResultParsers(t *testing.T) {
	var iso []AMDIsolationEntry
	if err := gpuArray([]byte(read(t, "amd-static-isolation.json")), &iso); err != nil || len(iso) != 3 {
		t.Fatalf("static -R: %v, %+v", err, iso)
	}
	if iso[0].ProcessIsolation != "Enabled" || iso[1].ProcessIsolation != "Disabled" || text(iso[2].ProcessIsolation) != "" {
		t.Errorf("isolation = %+v", iso)
	}
	for file, want := range map[string][2]string{
		"amd-set-isolation.json":          {"process_isolation", "Successfully set process isolation to Enabled"},
		"amd-set-isolation-already.json":  {"process_isolation", "Process isolation is already Disabled"},
		"amd-reset-xgmierr.json":          {"reset_xgmi_err", "Successfully reset XGMI Error count"},
		"amd-reset-xgmierr-na.json":       {"reset_xgmi_err", "N/A"},
		"amd-reset-clean-local-data.json": {"clean_local_data", "Successfully clean GPU local data"},
	} {
		if got := amdResult([]byte(read(t, file)), want[0]); got != want[1] {
			t.Errorf("%s: %q, want %q", file, got, want[1])
		}
	}
}

// An XGMI error status or an uncorrectable XGMI count fails the GPU's
// history (and a validation's reading); correctable counts are events.
func TestXGMIJudged(t *testing.T) {
	bad := wire.GPUState{XGMIErrorStatus: "AMDSMI_XGMI_STATUS_ERROR", XGMICorrectableCount: ptr[int64](3), XGMIUncorrectableCount: ptr[int64](1)}
	fail, events := JudgeHistory(bad)
	if diff := cmp.Diff([]string{"XGMI error status AMDSMI_XGMI_STATUS_ERROR", "1 uncorrectable XGMI error(s)"}, fail); diff != "" {
		t.Errorf("history failures (-want +got):\n%s", diff)
	}
	if len(events) != 3 || events[2] != "3 correctable XGMI error(s)" {
		t.Errorf("history events = %v", events)
	}
	c := historyCheck(bad, nil)
	if c.Passed {
		t.Errorf("tenancy_history passed an XGMI error: %+v", c)
	}
	clean := wire.GPUState{XGMIErrorStatus: AMDXGMINoErrors, XGMICorrectableCount: ptr[int64](0), XGMIUncorrectableCount: ptr[int64](0)}
	if fail, events := JudgeHistory(clean); len(fail)+len(events) != 0 {
		t.Errorf("a clean XGMI reading: %v %v", fail, events)
	}
	if why := Judge(bad, 1024); !contains(why, "XGMI error status AMDSMI_XGMI_STATUS_ERROR") {
		t.Errorf("Judge = %v", why)
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
