package maas_test

import (
	"io"
	"net/http"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/juju/gomaasapi/v2"

	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// cost is what one list call took: wall time and bytes allocated.
type cost struct{ ns, bytes float64 }

// measure runs list in b's loop, fails b unless every call listed 5,000
// machines, and reports ms/op and MB/op.
func measure(b *testing.B, list func() int) cost {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		if got := list(); got != 5000 {
			b.Fatalf("listed %d machines, want 5000", got)
		}
		n++
	}
	cpu := cpuTime(b) - cpu0
	runtime.ReadMemStats(&after)
	c := cost{ns: float64(b.Elapsed().Nanoseconds()) / float64(n), bytes: float64(after.TotalAlloc-before.TotalAlloc) / float64(n)}
	b.ReportMetric(c.ns/1e6, "ms/list")
	b.ReportMetric(c.bytes/1e6, "MB/list")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n)/1e6, "cpu_ms/list")
	return c
}

// cpuTime is the CPU time the process has used (user and system, GC
// included): on a shared machine, a figure less bent by other load than
// wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRatio reports base over c, for time and bytes.
func (c cost) reportRatio(b *testing.B, base cost, name string) {
	if base.ns == 0 {
		b.Fatalf("baseline %s not measured in this run (run the whole benchmark, not one sub-benchmark)", name)
	}
	b.ReportMetric(base.ns/c.ns, "ratio_"+name+"_time")
	b.ReportMetric(base.bytes/c.bytes, "ratio_"+name+"_bytes")
}

// gomaasController is Canonical's client for the simulator, with the
// machine list answered from body.
func gomaasController(b *testing.B, e *env, body []byte) gomaasapi.Controller {
	ctrl, err := gomaasapi.NewController(gomaasapi.ControllerArgs{BaseURL: e.srv.URL + "/MAAS/", APIKey: apiKey,
		HTTPClient: &http.Client{Transport: replay{body}}})
	if err != nil {
		b.Fatal(err)
	}
	return ctrl
}

// replayClient is our client for the simulator, with the machine list
// answered from body.
func replayClient(b testing.TB, e *env, body []byte) *maas.Client {
	c, err := maas.New(maas.Config{BaseURL: e.srv.URL + "/MAAS/", APIKey: apiKey, Clock: e.clock,
		HTTPClient: &http.Client{Transport: replay{body}}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// readWholeList is a list call as the client made it before it streamed:
// the answer (served from body) read whole, then decoded.
func readWholeList(b *testing.B, e *env, body []byte) func() int {
	hc := &http.Client{Transport: replay{body}}
	return func() int {
		resp, err := hc.Get(e.srv.URL + "/MAAS/api/2.0/machines/")
		if err != nil {
			b.Fatal(err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		ms, err := maas.DecodeMachinesWhole(data)
		if err != nil {
			b.Fatal(err)
		}
		return len(ms)
	}
}
