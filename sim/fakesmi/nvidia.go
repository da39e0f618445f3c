package fakesmi

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Exit codes as nvidia-smi documents them; the code for an unknown query
// field is not documented, 2 (invalid argument) is used.
const (
	exitInvalid  = 2
	exitNotFound = 6
	exitInternal = 255
)

// NVIDIASMI answers one nvidia-smi invocation and returns its exit code.
func NVIDIASMI(root string, args []string, stdout, stderr io.Writer) int {
	s, err := Load(root)
	if err != nil || s.NVIDIA == nil || !DriverLoaded(root) {
		fmt.Fprintln(stdout, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.")
		return 9
	}
	n := s.NVIDIA
	n.Processes = alive(root, n.Processes)
	a := parseArgs(args)
	sel := n.selected(a.ids)
	for _, g := range n.GPUs {
		if g.Lost && !a.has("--help-query-gpu") {
			fmt.Fprintf(stderr, "Unable to determine the device handle for GPU%s: GPU is lost. Reboot the system to recover this GPU\n", g.BusID)
		}
	}
	code := 0
	switch {
	case a.has("--help-query-gpu"):
		code = n.helpQueryGPU(stdout)
	case len(args) > 1 && args[0] == "nvlink":
		code = n.nvlink(args[1], sel, stdout, stderr)
	case len(args) > 0 && args[0] == "mig":
		code = n.mig(a, sel, stdout)
	case a.val("-mig") != "":
		code = n.migMode(a, sel, stdout)
	case a.query != "":
		code = n.queryGPUs(a, sel, stdout, stderr)
	case a.apps != "":
		code = n.queryApps(a, sel, stdout, stderr)
	case a.has("-r") || a.has("--gpu-reset"):
		code = n.reset(root, sel, stdout)
	case a.val("-pm") != "":
		for _, g := range sel {
			g.Persistence = map[string]string{"0": "Disabled", "1": "Enabled"}[a.val("-pm")]
		}
		fmt.Fprintln(stdout, "All done.")
	case a.val("-c") != "":
		for _, g := range sel {
			g.ComputeMode = "Default"
		}
	case a.val("-p") == "0":
		for _, g := range sel {
			g.ECCVolatile = 0
		}
	case a.val("-p") == "1":
		fmt.Fprintln(stderr, "Resetting aggregate ECC errors is not supported on this GPU.")
		return 3
	case a.val("-pl") != "":
		code = n.powerLimit(a.val("-pl"), sel, stdout, stderr)
	case a.val("-e") == "0" || a.val("-e") == "1":
		for _, g := range sel {
			g.ECCPending = map[string]string{"0": "Disabled", "1": "Enabled"}[a.val("-e")]
			fmt.Fprintf(stdout, "ECC support is already %s for GPU %s.\n", g.ECCPending, g.BusID)
		}
		fmt.Fprintln(stdout, "All done.")
	case a.has("-caa"):
		for _, g := range sel {
			g.Accounted = 0
			fmt.Fprintf(stdout, "Cleared Accounted PIDs for GPU %s.\n", g.BusID)
		}
		fmt.Fprintln(stdout, "All done.")
	case a.has("-rac"):
		for _, g := range sel {
			g.AppClocks = false
			fmt.Fprintf(stdout, "All done.\n")
		}
	case a.has("-rgc") || a.has("-rmc"):
	default:
		fmt.Fprintln(stderr, "fakesmi: unsupported invocation:", strings.Join(args, " "))
		return exitInvalid
	}
	if err := Save(root, s); err != nil {
		fmt.Fprintln(stderr, err)
		return exitInternal
	}
	return code
}

func (n *NVIDIAState) selected(ids []string) []*NVIDIAGPU {
	var out []*NVIDIAGPU
	for i := range n.GPUs {
		g := &n.GPUs[i]
		if g.Lost {
			continue
		}
		if len(ids) == 0 || slices.Contains(ids, g.UUID) || slices.Contains(ids, fmt.Sprint(g.Index)) || slices.Contains(ids, g.BusID) {
			out = append(out, g)
		}
	}
	return out
}

func (n *NVIDIAState) used(g *NVIDIAGPU) int64 {
	u := g.LeakedMiB
	for _, p := range n.Processes {
		if p.GPU == g.UUID {
			u += p.UsedMiB
		}
	}
	return u
}

func (n *NVIDIAState) reset(root string, sel []*NVIDIAGPU, stdout io.Writer) int {
	var busy []*NVIDIAGPU
	client := clientActive(root)
	for _, g := range sel {
		inUse := client || g.RefuseReset || g.Persistence == "Enabled" || slices.ContainsFunc(n.Processes, func(p GPUProcess) bool { return p.GPU == g.UUID })
		if inUse {
			busy = append(busy, g)
		}
	}
	if len(busy) > 0 {
		fmt.Fprintln(stdout, "The following GPUs could not be reset:")
		for _, g := range busy {
			fmt.Fprintf(stdout, "  GPU %s: In use by another client\n", g.BusID)
		}
		fmt.Fprintf(stdout, "\n%d device is currently being used by one or more other processes (e.g., Fabric Manager, CUDA application, graphics application such as an X server, or a monitoring application such as another instance of nvidia-smi). Please first kill all processes using this device and all compute applications running in the system.\n", len(busy))
		return exitInternal
	}
	for _, g := range sel {
		g.LeakedMiB, g.RemapPending, g.MIGCurrent, g.Resets, g.NVLinkCRC = 0, noIfSet(g.RemapPending), g.MIGPending, g.Resets+1, 0
		if !g.ResetSilent {
			fmt.Fprintf(stdout, "GPU %s was successfully reset.\n", g.BusID)
		}
	}
	fmt.Fprintln(stdout, "All done.")
	return 0
}

func noIfSet(s string) string {
	if s == "" {
		return ""
	}
	return "No"
}
