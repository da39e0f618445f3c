package canary_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/canary"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// Canaries planted where MAAS's quick erase reaches survive an erase
// that does nothing, and the check names MAAS, the drive and the offsets;
// after a quick erase none survives.
func TestPlantThenCheck(t *testing.T) {
	for _, erased := range []bool{true, false} {
		h := tasktest.New(t)
		if err := fakehost.Provision(string(h.Root), fakehost.Spec{}); err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(wire.CanaryPlantPayload{Drives: wire.DrivePolicy{AllNVMe: true, Canaries: 4}, Placement: wire.PlaceQuick})
		res, err := canary.Plant{}.Run(context.Background(), h.Env(), body)
		if err != nil || len(res.Evidence.Drives) != 2 {
			t.Fatalf("plant: %v %+v", err, res.Evidence)
		}
		if erased {
			for _, d := range []string{"/dev/nvme1n1", "/dev/nvme2n1"} {
				fi, _ := os.Stat(h.Path(d))
				_ = os.Truncate(h.Path(d), 0)
				_ = os.Truncate(h.Path(d), fi.Size())
			}
		}
		body, _ = json.Marshal(wire.CanaryCheckPayload{Planted: res.Evidence.Drives,
			Erase: wire.EraseEvidence{By: "maas", Mode: "quick", Covers: "2 MiB at each end"}})
		res, err = canary.Check{}.Run(context.Background(), h.Env(), body)
		if erased != (err == nil) || res.Evidence == nil || res.Evidence.Erase == nil {
			t.Fatalf("erased %v: check err %v, evidence %+v", erased, err, res.Evidence)
		}
		want := map[bool]string{true: wire.CanaryPassed, false: wire.CanaryFailed}[erased]
		if res.Evidence.Erase.Canary != want || res.Evidence.Erase.Mode != "quick" {
			t.Errorf("erased %v: summary %+v", erased, res.Evidence.Erase)
		}
		if !erased && (!strings.Contains(res.Evidence.Drives[0].Reason, "4 of 4 canaries survived MAAS's quick erase at offsets") ||
			len(res.Evidence.Drives[0].Survivors) != 4) {
			t.Errorf("the failure does not name MAAS's erase and the offsets: %+v", res.Evidence.Drives[0])
		}
	}
}
