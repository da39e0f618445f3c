package lifecycle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func bom8(vendor, model string) BOM {
	var b BOM
	for i := range 8 {
		b.GPUs = append(b.GPUs, BOMGPU{Vendor: vendor, Model: model, UUID: "GPU-" + string(rune('a'+i)),
			Serial: "S" + string(rune('0'+i)), VBIOS: "96.00.1"})
	}
	b.Drives = []BOMDrive{{Name: "nvme0", Serial: "D1", Model: "PM1743", Firmware: "F1"}}
	b.NICs = []BOMNIC{{Name: "ens1f0", MAC: "b8:3f:d2:aa:bb:01", Firmware: "28.39"}}
	b.BIOSVersion, b.BMCVersion = "2.3", "7.10"
	return b
}

func TestDiffBOM(t *testing.T) {
	was := bom8("nvidia", "NVIDIA H100 80GB HBM3")
	if d := DiffBOM(was, was); d != nil {
		t.Fatalf("same BOM differs: %v", d)
	}
	now := bom8("nvidia", "NVIDIA H100 80GB HBM3")
	now.GPUs[3] = BOMGPU{Vendor: "nvidia", Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-swapped", Serial: "S9", VBIOS: "96.00.1"}
	now.Drives[0].Firmware = "F2"
	now.NICs = nil
	now.BIOSVersion = "2.4"
	now.BMCVersion = "" // not given: no change
	want := []string{
		"GPU serial S3 (GPU-d, NVIDIA H100 80GB HBM3, bus ) is missing",
		"GPU serial S9 (GPU-swapped, NVIDIA H100 80GB HBM3, bus ) is new",
		"drive serial D1 firmware changed: F1 -> F2",
		"NIC b8:3f:d2:aa:bb:01 (ens1f0, ) is missing",
		"BIOS version changed: 2.3 -> 2.4",
	}
	if d := cmp.Diff(want, DiffBOM(was, now)); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
}

func TestCheckSKU(t *testing.T) {
	h100 := bom8("nvidia", "NVIDIA H100 80GB HBM3")
	for _, c := range []struct {
		sku  string
		b    BOM
		gpus int
		want string
	}{
		{"h100.80g.8gpu", h100, 8, ""},
		{"mi300x.192g.8gpu", bom8("amd", "AMD Instinct MI300X"), 8, ""},
		{"mi300x.192g.8gpu", h100, 8, "GPU GPU-a is nvidia NVIDIA H100 80GB HBM3, not amd"},
		{"h200.141g.8gpu", h100, 8, `GPU GPU-a is a "NVIDIA H100 80GB HBM3", not a h200`},
		{"h100.80g.8gpu", BOM{GPUs: h100.GPUs[:7]}, 8, "7 GPUs where the SKU has 8"},
	} {
		err := CheckSKU(c.sku, c.gpus, c.b)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckSKU(%s) = %v, want %q", c.sku, err, c.want)
		}
		if err != nil && (ErrorCode(err) != CodeInvalid || !strings.Contains(err.Error(), "SKU "+c.sku)) {
			t.Errorf("CheckSKU(%s) error %v: want invalid naming the SKU", c.sku, err)
		}
	}
}

func TestNodeSerialsGPUsFirst(t *testing.T) {
	b := bom8("nvidia", "H100")
	n := Node{Inventory: &NodeInventory{Recorded: &b}}
	want := []string{"S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "D1"}
	if d := cmp.Diff(want, n.Serials()); d != "" {
		t.Error(d)
	}
	if (Node{}).Serials() != nil {
		t.Error("a node without inventory has serials")
	}
}
