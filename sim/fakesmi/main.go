package fakesmi

import (
	"fmt"
	"io"
	"path/filepath"
)

// Main runs the tool named by argv0's base name (nvidia-smi, amd-smi or dcgmi)
// against the state under root and returns the exit code.
func Main(root, argv0 string, args []string, stdout, stderr io.Writer) int {
	switch filepath.Base(argv0) {
	case "nvidia-smi":
		return NVIDIASMI(root, args, stdout, stderr)
	case "amd-smi":
		return AMDSMI(root, args, stdout, stderr)
	case "dcgmi":
		return DCGMI(root, args, stdout, stderr)
	case "modprobe":
		return Modprobe(root, args, stderr)
	}
	fmt.Fprintf(stderr, "fakesmi: run as nvidia-smi or amd-smi, not %s\n", argv0)
	return 2
}
