package fakehost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// TestInjectXid48: the injected Xid is a kernel log line the agent's
// parser reads as a quarantine-class event on GPU 0's bus, and the
// double-bit error is counted on GPU 0 (volatile and aggregate) only.
func TestInjectXid48(t *testing.T) {
	root := t.TempDir()
	if err := fakehost.Provision(root, fakehost.Spec{GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := fakehost.Inject(root, fakehost.Residue{User: "tenant1", Process: true, Xid: 48}); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(root, fakehost.KernLog))
	if err != nil {
		t.Fatal(err)
	}
	xids := gpu.ParseXids(string(log))
	if len(xids) != 1 || xids[0].Code != 48 || xids[0].Class != gpu.XidQuarantine || xids[0].Bus != "0000:18:00" {
		t.Fatalf("parsed %+v from %q; want one Xid 48 (quarantine) on 0000:18:00", xids, log)
	}
	s, err := fakesmi.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if g := s.NVIDIA.GPUs; g[0].ECCVolatile != 1 || g[0].ECCAggregate != 1 || g[1].ECCVolatile+g[1].ECCAggregate != 0 {
		t.Errorf("ECC counts %+v / %+v; want one DBE on GPU 0 only", g[0], g[1])
	}
}

// TestInjectXidRefusesBadInput: a code out of range, or an Xid on a host
// without NVIDIA GPUs, is refused with the field named.
func TestInjectXidRefusesBadInput(t *testing.T) {
	for name, spec := range map[string]fakehost.GPUs{"amd host": {Vendor: fakehost.VendorAMD, Count: 1},
		"bad code": {Vendor: fakehost.VendorNVIDIA, Count: 1}} {
		root := t.TempDir()
		if err := fakehost.Provision(root, fakehost.Spec{GPUs: spec}); err != nil {
			t.Fatal(err)
		}
		code := 48
		if name == "bad code" {
			code = 1000
		}
		if _, err := fakehost.Inject(root, fakehost.Residue{Xid: code}); err == nil {
			t.Errorf("%s: Xid %d injected; want it refused", name, code)
		}
	}
}

// The link faults land on GPU 0 of the fake tool's state.
func TestInjectLinkFaults(t *testing.T) {
	root := t.TempDir()
	if err := fakehost.Provision(root, fakehost.Spec{GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := fakehost.Inject(root, fakehost.Residue{NarrowPCIe: true, NVLinkDown: true, RefuseReset: true}); err != nil {
		t.Fatal(err)
	}
	s, err := fakesmi.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if g := s.NVIDIA.GPUs[0]; g.PCIeWidth != 8 || len(g.NVLinkDown) != 1 || !g.RefuseReset || g.Held {
		t.Errorf("GPU 0 %+v; want x8, a link down, refusing reset, driver not held", g)
	}
	if g := s.NVIDIA.GPUs[1]; g.PCIeWidth != 0 || len(g.NVLinkDown) != 0 || g.NVLinks != 18 {
		t.Errorf("GPU 1 %+v; want untouched with 18 links", g)
	}
}
