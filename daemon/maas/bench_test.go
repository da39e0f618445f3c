package maas_test

import (
	"context"
	"testing"

	"github.com/juju/gomaasapi/v2"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
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

// BenchmarkMachineListDecode measures the client's decode of a recorded
// 5,000-machine GET machines/ answer apart from the simulator's
// rendering: decode is the bytes to []lifecycle.Machine alone, beside
// decode_encoding_json, the client's decode before it had its own
// reader; client and gomaasapi are each library's whole list call, with
// the answer served from memory, beside client_read_whole, the same
// call as the client made it before it streamed (the body read whole,
// then decoded). The ratio_* metrics are the baseline's time and bytes
// per list over the measured one's.
func BenchmarkMachineListDecode(b *testing.B) {
	e := newEnv(b, 5000)
	body := recordMachineList(b, e)
	ctrl := gomaasController(b, e, body)
	var base, whole cost
	b.Run("gomaasapi", func(b *testing.B) {
		base = measure(b, func() int {
			ms, err := ctrl.Machines(gomaasapi.MachinesArgs{})
			if err != nil {
				b.Fatal(err)
			}
			return len(ms)
		})
	})
	b.Run("client_read_whole", func(b *testing.B) {
		whole = measure(b, readWholeList(b, e, body))
	})
	c := replayClient(b, e, body)
	b.Run("client", func(b *testing.B) {
		got := measure(b, func() int {
			ms, err := c.Machines(context.Background(), lifecycle.MachineFilter{})
			if err != nil {
				b.Fatal(err)
			}
			return len(ms)
		})
		got.reportRatio(b, base, "gomaasapi")
		got.reportRatio(b, whole, "read_whole")
	})
	var old cost
	b.Run("decode_encoding_json", func(b *testing.B) {
		old = measure(b, func() int {
			ms, err := maas.UnmarshalMachines(body)
			if err != nil {
				b.Fatal(err)
			}
			return len(ms)
		})
	})
	b.Run("decode", func(b *testing.B) {
		got := measure(b, func() int {
			ms, err := maas.DecodeMachines(body)
			if err != nil {
				b.Fatal(err)
			}
			return len(ms)
		})
		got.reportRatio(b, old, "encoding_json")
		b.ReportMetric(float64(len(body))/1e6, "answer_MB")
	})
}
