package fakesmi

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"
)

// DCGMState is the host's DCGM install; without it dcgmi is not there.
type DCGMState struct {
	Version string `json:"version"`
	// HangLevel makes dcgmi diag -r HangLevel never finish (level 2 hangs
	// on some boards).
	HangLevel int `json:"hang_level,omitempty"`
	// FailTest fails the named test on FailGPU (an index).
	FailTest string `json:"fail_test,omitempty"`
	FailGPU  int    `json:"fail_gpu,omitempty"`
}

// diagTests are the tests each level adds (DCGM 4.x names).
var diagTests = [][2]string{
	{"Deployment", "software"}, {"Hardware", "pcie"}, {"Hardware", "memory"},
	{"Stress", "targeted_stress"}, {"Stress", "targeted_power"}, {"Stress", "memory_bandwidth"},
	{"Hardware", "diagnostic"},
}

// testsUpTo is how many of diagTests a level runs.
var testsUpTo = map[int]int{1: 1, 2: 3, 3: 6, 4: 7}

// hang stands for a diagnostic that never returns; a variable so that a
// process running the fake in-process can be ended.
var hang = func() { time.Sleep(24 * time.Hour) }

// DCGMI answers dcgmi diag -r N -j in DCGM 4.x's JSON layout. A GPU
// whose uncorrectable ECC count is not zero fails the memory test.
func DCGMI(root string, args []string, stdout, stderr io.Writer) int {
	s, err := Load(root)
	if err != nil || s.DCGM == nil || s.NVIDIA == nil {
		fmt.Fprintln(stderr, "dcgmi: command not found")
		return 127
	}
	a := parseArgs(args)
	level, err := strconv.Atoi(a.val("-r"))
	if len(args) == 0 || args[0] != "diag" || err != nil || testsUpTo[level] == 0 || !a.has("-j") {
		fmt.Fprintln(stderr, "fakesmi: dcgmi: only diag -r 1..4 -j is simulated")
		return exitInvalid
	}
	if level == s.DCGM.HangLevel {
		hang()
	}
	type result struct {
		Group    string           `json:"entity_group"`
		GroupID  int              `json:"entity_group_id"`
		ID       int              `json:"entity_id"`
		Status   string           `json:"status"`
		Warnings []map[string]any `json:"warnings,omitempty"`
	}
	var cats []map[string]any
	failed := false
	for _, t := range diagTests[:testsUpTo[level]] {
		var rs []result
		for _, g := range s.NVIDIA.GPUs {
			r := result{Group: "GPU", GroupID: 1, ID: g.Index, Status: "Pass"}
			if (t[1] == s.DCGM.FailTest && g.Index == s.DCGM.FailGPU) || (t[1] == "memory" && g.ECCVolatile+g.ECCAggregate > 0) {
				r.Status = "Fail"
				r.Warnings = []map[string]any{{"warning": fmt.Sprintf("GPU %d failed the %s test", g.Index, t[1]), "error_id": 46, "error_category": 3, "error_severity": 2}}
				failed = true
			}
			rs = append(rs, r)
		}
		status := map[bool]string{true: "Fail", false: "Pass"}[slices.ContainsFunc(rs, func(r result) bool { return r.Status == "Fail" })]
		cats = append(cats, map[string]any{"category": t[0], "tests": []any{map[string]any{"name": t[1], "results": rs, "test_summary": map[string]string{"status": status}}}})
	}
	doc := map[string]any{"DCGM Diagnostic": map[string]any{"test_categories": cats}, "metadata": map[string]string{"version": s.DCGM.Version}}
	b, _ := json.MarshalIndent(doc, "", "    ")
	fmt.Fprintln(stdout, string(b))
	if failed {
		return 226 // DCGM_ST_NVVS_ERROR as a process status
	}
	return 0
}
