package fakesmi

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

type val struct {
	Value int64  `json:"value"`
	Unit  string `json:"unit"`
}

// AMDSMI answers one amd-smi invocation (all with --json) and returns its
// exit code. A refused reset reports "[AMDSMI_STATUS_BUSY] Unable to reset
// GPU" and exits 0, as the real CLI does.
func AMDSMI(root string, args []string, stdout, stderr io.Writer) int {
	s, err := Load(root)
	if err != nil || s.AMD == nil {
		fmt.Fprintln(stderr, "AMDSMI_STATUS_DRIVER_NOT_LOADED")
		return 1
	}
	a := s.AMD
	a.Processes = alive(root, a.Processes)
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: amd-smi {version,list,static,metric,process,bad-pages,reset}")
		return 1
	}
	for _, o := range a.Unsupported {
		if slices.Contains(args, o) {
			fmt.Fprintf(stderr, "amd-smi %s: error: unrecognized arguments: %s\n", args[0], o)
			return 2
		}
	}
	var out any
	switch args[0] {
	case "version":
		fmt.Fprintf(stdout, "AMDSMI Tool: %s\n", a.Version)
		return 0
	case "list":
		out = a.each(func(g *AMDGPU) map[string]any { return map[string]any{"bdf": g.BDF, "uuid": g.UUID} })
	case "static":
		out = a.each(func(g *AMDGPU) map[string]any { return static(g, args[1:]) })
	case "metric":
		out = map[string]any{"cpu_data": []any{}, "core_data": []any{}, "gpu_data": a.each(func(g *AMDGPU) map[string]any { return a.metric(g, args[1:]) })}
	case "set":
		return a.set(root, s, args, stdout, stderr)
	case "process":
		out = a.each(a.procs)
	case "bad-pages":
		out = a.each(func(g *AMDGPU) map[string]any {
			return map[string]any{"retired": "No bad pages found.", "pending": pending(g.PendingPages), "un_res": "No bad pages found."}
		})
	case "reset":
		return a.reset(root, s, args, stdout, stderr)
	default:
		fmt.Fprintln(stderr, "fakesmi: unsupported amd-smi command", args[0])
		return 1
	}
	_ = json.NewEncoder(stdout).Encode(out)
	return 0
}

func (a *AMDState) each(f func(*AMDGPU) map[string]any) []map[string]any {
	var out []map[string]any
	for i := range a.GPUs {
		m := f(&a.GPUs[i])
		m["gpu"] = a.GPUs[i].Index
		out = append(out, m)
	}
	return out
}

// metric answers the metrics flags asks for (all without flags).
func (a *AMDState) metric(g *AMDGPU, flags []string) map[string]any {
	used := g.BaseUsedMB + g.LeakedMB
	for _, p := range a.Processes {
		if p.GPU == fmt.Sprint(g.Index) {
			used += p.UsedMiB
		}
	}
	all := map[string]any{
		"--mem-usage":  map[string]any{"total_vram": val{g.VRAMTotalMB, "MB"}, "used_vram": val{used, "MB"}, "free_vram": val{g.VRAMTotalMB - used, "MB"}},
		"--ecc":        map[string]any{"total_correctable_count": 0, "total_uncorrectable_count": g.ECCUncorrectable, "total_deferred_count": 0},
		"--ecc-blocks": map[string]any{"UMC": block(0, g.ECCUncorrectable), "XGMI_WAFL": block(g.XGMICorrectable, g.XGMIUncorrectable)},
		"--xgmi-err":   xgmiStatus[g.XGMIStatus],
	}
	keys := map[string]string{"--mem-usage": "mem_usage", "--ecc": "ecc", "--ecc-blocks": "ecc_blocks", "--xgmi-err": "xgmi_err"}
	return pick(all, keys, flags)
}

func (a *AMDState) procs(g *AMDGPU) map[string]any {
	var list []any
	for _, p := range a.Processes {
		if p.GPU == fmt.Sprint(g.Index) {
			list = append(list, map[string]any{"process_info": map[string]any{"name": p.Name, "pid": p.PID,
				"mem_usage": val{p.UsedMiB << 20, "B"}}})
		}
	}
	if len(list) == 0 {
		list = []any{map[string]any{"process_info": "No running processes detected"}}
	}
	return map[string]any{"process_list": list}
}

func pending(n int) any {
	switch n {
	case 0:
		return "No bad pages found."
	case 1:
		return map[string]any{"page_address": "0x1000", "page_size": "4.0 KB", "status": "PENDING"}
	}
	var l []any
	for i := range n {
		l = append(l, map[string]any{"page_address": fmt.Sprintf("0x%x", 0x1000*(i+1)), "page_size": "4.0 KB", "status": "PENDING"})
	}
	return l
}

// reset handles "reset -G -g all --json" (one document per GPU; a GPU
// refuses while a compute process runs on it or any process holds
// /dev/kfd) and the per-GPU resets of amdReset.
func (a *AMDState) reset(root string, s *State, args []string, stdout, stderr io.Writer) int {
	if !slices.Contains(args, "-G") {
		return a.resetOne(root, s, args, stdout, stderr)
	}
	held := KFDHeld(root)
	for i := range a.GPUs {
		g := &a.GPUs[i]
		msg := "Successfully reset GPU"
		if g.RefuseReset || held || slices.ContainsFunc(a.Processes, func(p GPUProcess) bool { return p.GPU == fmt.Sprint(g.Index) }) {
			msg = "[AMDSMI_STATUS_BUSY] Unable to reset GPU"
		} else {
			g.LeakedMB, g.PendingPages, g.Resets = 0, 0, g.Resets+1
		}
		_ = json.NewEncoder(stdout).Encode([]map[string]any{{"gpu": g.Index, "gpu_reset": msg}})
	}
	if err := Save(root, s); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
