package maas_test

import (
	"context"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// BenchmarkSite5000 lists and filters on a 5,000-machine simulated site
// through the client (HTTP, JSON, translation included).
func BenchmarkSite5000(b *testing.B) {
	e := newEnv(b, 5000)
	ctx := context.Background()
	all, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil || len(all) != 5000 {
		b.Fatalf("%d %v", len(all), err)
	}
	b.Run("list_all", func(b *testing.B) {
		for b.Loop() {
			if ms, err := e.client.Machines(ctx, lifecycle.MachineFilter{}); err != nil || len(ms) != 5000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("filter_id", func(b *testing.B) {
		f := lifecycle.MachineFilter{IDs: []string{all[4321].SystemID}}
		for b.Loop() {
			if ms, err := e.client.Machines(ctx, f); err != nil || len(ms) != 1 {
				b.Fatal(err)
			}
		}
	})
	b.Run("filter_mac_10", func(b *testing.B) {
		var f lifecycle.MachineFilter
		for i := 0; i < 10; i++ {
			f.MACAddresses = append(f.MACAddresses, e.mac(b, all[i*400].SystemID))
		}
		for b.Loop() {
			if ms, err := e.client.Machines(ctx, f); err != nil || len(ms) != 10 {
				b.Fatal(err)
			}
		}
	})
}
