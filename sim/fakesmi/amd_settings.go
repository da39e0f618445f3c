package fakesmi

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// xgmiStatus are amd-smi's XGMI error status names (amdsmi_xgmi_status_t).
var xgmiStatus = []string{"AMDSMI_XGMI_STATUS_NO_ERRORS", "AMDSMI_XGMI_STATUS_ERROR", "AMDSMI_XGMI_STATUS_MULTIPLE_ERRORS"}

func block(correctable, uncorrectable int64) map[string]any {
	return map[string]any{"correctable_count": correctable, "uncorrectable_count": uncorrectable, "deferred_count": 0}
}

// pick keeps the entries of all whose flag is in flags (every entry when
// flags names none of them), under their JSON keys.
func pick(all map[string]any, keys map[string]string, flags []string) map[string]any {
	out := map[string]any{}
	for flag, v := range all {
		if slices.Contains(flags, flag) {
			out[keys[flag]] = v
		}
	}
	if len(out) == 0 {
		for flag, v := range all {
			out[keys[flag]] = v
		}
	}
	return out
}

// static answers amd-smi static's --asic and --process-isolation.
func static(g *AMDGPU, flags []string) map[string]any {
	all := map[string]any{"--asic": map[string]any{"market_name": g.MarketName, "asic_serial": g.Serial},
		"--process-isolation": isolation(g)}
	return pick(all, map[string]string{"--asic": "asic", "--process-isolation": "process_isolation"}, flags)
}

func isolation(g *AMDGPU) string {
	if g.Isolation == "" {
		return "Disabled"
	}
	return g.Isolation
}

// gpuOf is the GPU "-g N" names.
func (a *AMDState) gpuOf(args []string) *AMDGPU {
	n, err := strconv.Atoi(parseArgs(args).val("-g"))
	for i := range a.GPUs {
		if err == nil && a.GPUs[i].Index == n {
			return &a.GPUs[i]
		}
	}
	return nil
}

// set handles "set -g N --process-isolation 0|1 --json" with the real
// CLI's result strings.
func (a *AMDState) set(root string, s *State, args []string, stdout, stderr io.Writer) int {
	g, v := a.gpuOf(args), parseArgs(args).val("--process-isolation")
	if g == nil || (v != "0" && v != "1") {
		fmt.Fprintln(stderr, "fakesmi: only set -g N --process-isolation 0|1 is simulated")
		return 1
	}
	want := map[string]string{"0": "Disabled", "1": "Enabled"}[v]
	msg := "Process isolation is already " + want
	if isolation(g) != want {
		g.Isolation, msg = want, "Successfully set process isolation to "+want
	}
	return a.answer(root, s, g, "process_isolation", msg, stdout, stderr)
}

// resetOne handles "reset -g N" with -c (clocks), --clean-local-data or
// --xgmierr.
func (a *AMDState) resetOne(root string, s *State, args []string, stdout, stderr io.Writer) int {
	g := a.gpuOf(args)
	switch {
	case g == nil:
		fmt.Fprintln(stderr, "fakesmi: reset needs -g N")
		return 1
	case slices.Contains(args, "-c"):
		return a.answer(root, s, g, "reset_clocks", "Successfully reset clocks", stdout, stderr)
	case slices.Contains(args, "--clean-local-data"):
		g.LocalDataCleans++
		return a.answer(root, s, g, "clean_local_data", "Successfully clean GPU local data", stdout, stderr)
	case slices.Contains(args, "--xgmierr"):
		g.XGMIStatus, g.XGMICorrectable, g.XGMIUncorrectable = 0, 0, 0
		return a.answer(root, s, g, "reset_xgmi_err", "Successfully reset XGMI Error count", stdout, stderr)
	}
	fmt.Fprintln(stderr, "fakesmi: unsupported reset", strings.Join(args, " "))
	return 1
}

// answer saves the state and prints [{"gpu": N, key: msg}].
func (a *AMDState) answer(root string, s *State, g *AMDGPU, key, msg string, stdout, stderr io.Writer) int {
	if err := Save(root, s); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	_ = json.NewEncoder(stdout).Encode([]map[string]any{{"gpu": g.Index, key: msg}})
	return 0
}

// KFDHeld reports whether a live process under root holds /dev/kfd open
// (a /proc/<pid>/fd link to it): amdgpu refuses a reset then.
func KFDHeld(root string) bool {
	links, _ := filepath.Glob(filepath.Join(root, "proc/*/fd/*"))
	for _, l := range links {
		if t, err := os.Readlink(l); err == nil && t == "/dev/kfd" {
			return true
		}
	}
	return false
}
