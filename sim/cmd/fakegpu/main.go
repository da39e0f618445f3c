// Command fakegpu is a fake nvidia-smi and amd-smi for simulated hosts:
// install (or link) it as <root>/usr/bin/nvidia-smi and amd-smi and it
// answers from <root>/var/lib/fakegpu/state.json (see package
// sim/fakesmi). The root is $GPUAAS_HOST_ROOT, which the
// agent's exec seam sets, or else three levels above the executable.
package main

import (
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

func main() {
	root := os.Getenv("GPUAAS_HOST_ROOT")
	if root == "" {
		exe, _ := os.Executable()
		root = filepath.Dir(filepath.Dir(filepath.Dir(exe)))
	}
	os.Exit(fakesmi.Main(root, os.Args[0], os.Args[1:], os.Stdout, os.Stderr))
}
