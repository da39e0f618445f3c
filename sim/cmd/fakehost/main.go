// Command fakehost is a simulated host's kill, userdel, loginctl and
// umount (package sim/fakehost): linked into <root>/usr/bin under
// those names it acts on the host root in $GPUAAS_HOST_ROOT, which the
// agent's exec seam sets. Run as fakehost it lays out and inspects
// simulated hosts, for dev mode, which must not link the fakes:
//
//	fakehost provision --root DIR [--gpus nvidia:8] [--tools-dir DIR] [--deploy-user ubuntu]
//	fakehost residue --root DIR '{"user":"tenant1","process":true,...}'
//	fakehost inspect --root DIR [--keep ubuntu]   (exit 1 when residue is left)
//	fakehost maas-erase --root DIR --method quick|full|secure   (MAAS's wipe-disks on the drives)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

func main() {
	name := filepath.Base(os.Args[0])
	if slices.Contains(fakehost.Tools, name) {
		os.Exit(fakehost.Main(os.Getenv("GPUAAS_HOST_ROOT"), name, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: fakehost provision|residue|inspect|maas-erase --root DIR ...")
		return 2
	}
	fs := flag.NewFlagSet("fakehost "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "host root `dir` (required)")
	gpus := fs.String("gpus", "nvidia:8", "GPU inventory: nvidia:N, amd:N or none (provision)")
	tools := fs.String("tools-dir", "", "`dir` holding fakehost and fakegpu, linked into usr/bin (provision)")
	user := fs.String("deploy-user", "ubuntu", "the image's login user (provision)")
	keep := fs.String("keep", "ubuntu", "comma-separated users that are not tenants (inspect)")
	method := fs.String("method", "full", "wipe-disks method: quick, full or secure (maas-erase)")
	if err := fs.Parse(args[1:]); err != nil || *root == "" {
		fmt.Fprintln(stderr, "fakehost: --root is required")
		return 2
	}
	var err error
	switch args[0] {
	case "provision":
		var g fakehost.GPUs
		if g, err = fakehost.ParseGPUs(*gpus); err == nil {
			err = fakehost.Provision(*root, fakehost.Spec{ToolsDir: *tools, GPUs: g, DeployUser: *user})
		}
	case "residue":
		var r fakehost.Residue
		if err = json.Unmarshal([]byte(fs.Arg(0)), &r); err == nil {
			var in fakehost.Injected
			in, err = fakehost.Inject(*root, r)
			_ = json.NewEncoder(stdout).Encode(in)
		}
	case "inspect":
		var rep fakehost.Report
		if rep, err = fakehost.Inspect(*root, strings.Split(*keep, ",")...); err == nil {
			_ = json.NewEncoder(stdout).Encode(rep)
			if !rep.Clean() {
				return 1
			}
		}
	case "maas-erase":
		err = fakehost.MaasErase(*root, *method)
	default:
		err = fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "fakehost:", err)
		return 2
	}
	return 0
}
