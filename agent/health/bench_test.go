package health

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// eightGPUs is nvidia-smi's answer for an 8-GPU HGX board in R590's
// format (every field the watch asks for), 18 NVLinks per GPU.
func eightGPUs() (query, status, errs string) {
	var q, s, e strings.Builder
	for i := range 8 {
		uuid := fmt.Sprintf("GPU-0a1b2c3d-0000-1111-2222-33334444555%d", i)
		fmt.Fprintf(&q, "%d, %s, 165492200000%d, 00000000:%02X:00.0, NVIDIA H100 80GB HBM3, 590.48.01, 81559, 40960, Enabled, Default, "+
			"Disabled, Disabled, 0, 0, No, No, No, Completed, Success, None, 0, 0, 0, 0, 16, 16, 0x0000000000000001, "+
			"700.00, 700.00, Enabled, Enabled, Disabled, 5, 5, 96.00.99.00.01\n", i, uuid, i, 0x18+0x0d*i)
		fmt.Fprintf(&s, "GPU %d: NVIDIA H100 80GB HBM3 (UUID: %s)\n", i, uuid)
		fmt.Fprintf(&e, "GPU %d: NVIDIA H100 80GB HBM3 (UUID: %s)\n", i, uuid)
		for l := range 18 {
			fmt.Fprintf(&s, "\t Link %d: 26.562 GB/s\n", l)
			fmt.Fprintf(&e, "\t Link %d: Replay Errors: 0\n\t Link %d: Recovery Errors: 0\n\t Link %d: CRC Errors: 0\n", l, l, l)
		}
	}
	return q.String(), s.String(), e.String()
}

type discard struct{}

func (discard) Health(context.Context, string, wire.HealthReport) error { return nil }

// BenchmarkPass is one pass of the watch on an 8-GPU NVIDIA host as the
// agent sees it: the tools' answers (recorded formats, served by the exec
// seam without starting a process) parsed, the PCI bus read, a quiet
// kernel log since the last pass, the report built. It reports the
// process's CPU time per pass besides ns/op; the tools' own cost is not
// in it.
func BenchmarkPass(b *testing.B) {
	root := hostRoot(b, 8)
	query, status, errs := eightGPUs()
	var after []string
	ex := fakeexec.New(map[string]fakeexec.Func{
		"nvidia-smi": smi(recorded(b, "nvidia-help-query-gpu-590.txt"), query, status, errs),
		"journalctl": journal("", &after),
	})
	w := newWatch(root, ex, discard{})
	if r := w.Pass(context.Background()); len(r.GPUs) != 8 || len(r.Unreadable) != 0 {
		b.Fatalf("%d GPUs, unreadable %v; want 8, none", len(r.GPUs), r.Unreadable)
	}
	ex = fakeexec.New(map[string]fakeexec.Func{
		"nvidia-smi": smi(recorded(b, "nvidia-help-query-gpu-590.txt"), query, status, errs),
		"journalctl": journal("", &after),
	})
	w.Exec, w.Readers = ex, newWatch(root, ex, discard{}).Readers
	before := cpu()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.Pass(context.Background())
	}
	b.StopTimer()
	b.ReportMetric(float64((cpu()-before).Microseconds())/float64(b.N), "cpu-µs/op")
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
