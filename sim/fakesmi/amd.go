package fakesmi

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
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
	var out any
	switch args[0] {
	case "version":
		fmt.Fprintf(stdout, "AMDSMI Tool: %s\n", a.Version)
		return 0
	case "list":
		out = a.each(func(g *AMDGPU) map[string]any { return map[string]any{"bdf": g.BDF, "uuid": g.UUID} })
	case "static":
		out = a.each(func(g *AMDGPU) map[string]any {
			return map[string]any{"asic": map[string]any{"market_name": g.MarketName, "asic_serial": g.Serial}}
		})
	case "metric":
		out = map[string]any{"cpu_data": []any{}, "core_data": []any{}, "gpu_data": a.each(a.metric)}
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

func (a *AMDState) metric(g *AMDGPU) map[string]any {
	used := g.BaseUsedMB + g.LeakedMB
	for _, p := range a.Processes {
		if p.GPU == fmt.Sprint(g.Index) {
			used += p.UsedMiB
		}
	}
	return map[string]any{
		"mem_usage": map[string]any{"total_vram": val{g.VRAMTotalMB, "MB"}, "used_vram": val{used, "MB"}, "free_vram": val{g.VRAMTotalMB - used, "MB"}},
		"ecc":       map[string]any{"total_correctable_count": 0, "total_uncorrectable_count": g.ECCUncorrectable, "total_deferred_count": 0},
	}
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

// reset handles "reset -G -g all --json" (one document per GPU) and
// "reset -c -g N --json".
func (a *AMDState) reset(root string, s *State, args []string, stdout, stderr io.Writer) int {
	if slices.Contains(args, "-c") {
		fmt.Fprintf(stdout, "[{\"gpu\": %s, \"reset_clocks\": \"Successfully reset clocks\"}]\n", args[len(args)-2])
		return 0
	}
	if !slices.Contains(args, "-G") {
		fmt.Fprintln(stderr, "fakesmi: unsupported reset", strings.Join(args, " "))
		return 1
	}
	for i := range a.GPUs {
		g := &a.GPUs[i]
		msg := "Successfully reset GPU"
		if g.RefuseReset || slices.ContainsFunc(a.Processes, func(p GPUProcess) bool { return p.GPU == fmt.Sprint(g.Index) }) {
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
