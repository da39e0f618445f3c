package fakehost_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestInspectFindsEveryInjectedResidue(t *testing.T) {
	root := t.TempDir()
	if err := fakehost.Provision(root, fakehost.Spec{GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 8}}); err != nil {
		t.Fatal(err)
	}
	if r, err := fakehost.Inspect(root); err != nil || !r.Clean() {
		t.Fatalf("a provisioned host: %+v, %v; want clean", r, err)
	}
	in, err := fakehost.Inject(root, fakehost.Residue{User: "alice", Process: true, Session: true, Mount: "/mnt/tenant",
		GPUMemoryMiB: 4096, ScratchFile: true, StuckGPU: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := fakehost.Inspect(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"users": len(r.Users), "processes": len(r.Processes), "mounts": len(r.Mounts),
		"files": len(r.Files), "gpus": len(r.GPUs)}
	want := map[string]int{"users": 1, "processes": 1, "mounts": 2, "files": 2, "gpus": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("residue counts (-want +got):\n%s\n%+v", diff, r)
	}
	if in.UID != 1001 || !strings.Contains(r.GPUs[0], "6144 MiB") {
		t.Errorf("injected %+v, GPU residue %q; want uid 1001 and 4096+2048 MiB used", in, r.GPUs)
	}
}

func TestParseGPUs(t *testing.T) {
	for in, want := range map[string]string{"nvidia:8": "nvidia:8", "amd:4": "amd:4", "": "none", "none": "none",
		"nvidia:0": "error", "intel:8": "error", "nvidia": "error", "amd:17": "error"} {
		g, err := fakehost.ParseGPUs(in)
		got := g.String()
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("ParseGPUs(%q) = %s, want %s", in, got, want)
		}
	}
}
