package health

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func xidLine(bus string, code int) string {
	return fmt.Sprintf("2026-07-14T07:00:00+0000 h kernel: NVRM: Xid (PCI:0000:%s:00): %d, pid=1, name=python3, x\n", bus, code)
}

func codes(xs []wire.XidRecord) string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprint(x.Code))
	}
	return strings.Join(out, ",")
}

// Xid events read while the daemon accepts no report are carried into
// every later report until one is accepted (2xx), then never sent again;
// each pass has a higher sequence number.
func TestXidsCarriedAcrossFailedPosts(t *testing.T) {
	root := hostRoot(t, 0)
	write(t, root.Path(KernLog), xidLine("18", 48))
	refused := &wire.Problem{Status: 503, Title: "Service Unavailable"}
	p := &poster{errs: []error{refused, errors.New("connection refused"), nil}}
	w := newWatch(root, fakeexec.New(nil), p)
	clock := w.Clock.(*clockwork.FakeClock)
	appendLog := func(s string) {
		f, err := os.OpenFile(root.Path(KernLog), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	var seqs []uint64
	pass := func() string {
		r := w.Pass(context.Background())
		seqs = append(seqs, r.Seq)
		clock.Advance(time.Minute)
		return codes(r.Xids)
	}
	steps := []struct {
		add, want string
	}{
		{"", "48"},                      // refused: carried
		{xidLine("2a", 79), "48,79"},    // no answer: carried
		{xidLine("2a", 94), "48,79,94"}, // accepted
		{"", ""},
		{xidLine("18", 63), "63"},
	}
	for i, s := range steps {
		appendLog(s.add)
		if got := pass(); got != s.want {
			t.Errorf("pass %d: Xids %q, want %q", i+1, got, s.want)
		}
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] <= seqs[i-1] {
			t.Errorf("seq %v does not increase", seqs)
		}
	}
}

// readOnly are the only commands the watch may run, as a prefix of the
// invocation: queries, never a reset, a diagnostic or a setting.
var readOnly = []string{"journalctl -k --no-pager -o short-iso --show-cursor ", "nvidia-smi --help-query-gpu",
	"nvidia-smi --query-gpu=", "nvidia-smi nvlink -s", "nvidia-smi nvlink -e",
	"amd-smi list --json", "amd-smi static --asic --json", "amd-smi metric --mem-usage --ecc --json", "amd-smi process --json",
	"amd-smi bad-pages --json", "amd-smi metric --xgmi-err --ecc-blocks --json", "amd-smi static --process-isolation --json"}

// Every command a watch runs, over passes on NVIDIA and AMD hosts with
// every tool installed and answering, is one of the read-only queries:
// the exec seam never sees a reset, a diagnostic, a settings change or a
// unit stopped.
func TestWatchNeverRunsAMutatingCommand(t *testing.T) {
	root := hostRoot(t, 2)
	write(t, root.Path("/sys/bus/pci/devices/0000:c1:00.0/vendor"), "0x1002\n")
	write(t, root.Path("/sys/bus/pci/devices/0000:c1:00.0/class"), "0x038000\n")
	var after []string
	answer := func(args []string) ([]byte, error) { return []byte("[]"), nil }
	ex := fakeexec.New(map[string]fakeexec.Func{
		"nvidia-smi": smi(helpFor(gpu.NVIDIAFields[:20]), recorded(t, "nvidia-query-clean.csv"), "", ""),
		"amd-smi":    answer, "journalctl": journal("", &after), "dcgmi": answer, "systemctl": answer, "modprobe": answer,
	})
	w := newWatch(root, ex, &poster{})
	for range 3 {
		w.Pass(context.Background())
	}
	calls := ex.Calls()
	if len(ex.CallsOf("nvidia-smi")) == 0 || len(ex.CallsOf("amd-smi")) == 0 || len(ex.CallsOf("journalctl")) != 3 {
		t.Fatalf("calls %q; want nvidia-smi, amd-smi and journalctl each pass", calls)
	}
	for _, c := range calls {
		ok := false
		for _, p := range readOnly {
			ok = ok || strings.HasPrefix(c+" ", p)
		}
		if !ok {
			t.Errorf("the watch ran %q, which is not a read-only query", c)
		}
	}
}

// While a task runs the vendor tools are not run (a query could hold a
// GPU that a scrub is resetting); the pass says so and reads the rest.
func TestBusySkipsTheVendorTools(t *testing.T) {
	root := hostRoot(t, 2)
	write(t, root.Path(KernLog), xidLine("18", 79))
	ex := fakeexec.New(map[string]fakeexec.Func{"nvidia-smi": smi("", "", "", "")})
	w := newWatch(root, ex, &poster{})
	w.Tools = func() (func(), bool) { return nil, false }
	r := w.Pass(context.Background())
	if n := len(ex.CallsOf("nvidia-smi")) + len(ex.CallsOf("amd-smi")); n != 0 {
		t.Errorf("%d vendor tool calls while busy; want none", n)
	}
	if len(r.Unreadable) != 1 || r.Unreadable[0].Name != "gpu:nvidia" || !strings.Contains(r.Unreadable[0].Reason, "task is running") ||
		r.GPUCount != 2 || codes(r.Xids) != "79" {
		t.Errorf("report %+v; want gpu:nvidia not read (a task is running), 2 on the bus, the Xid 79", r)
	}
}

// Run passes at once and then every interval, and returns when its
// context ends.
func TestRunPassesEveryInterval(t *testing.T) {
	root := hostRoot(t, 0)
	p := &countingPoster{n: make(chan int, 10)}
	w := newWatch(root, fakeexec.New(nil), p)
	clock := w.Clock.(*clockwork.FakeClock)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	for want := 1; want <= 3; want++ {
		if got := <-p.n; got != want {
			t.Fatalf("pass %d, want %d", got, want)
		}
		clock.BlockUntilContext(ctx, 1)
		clock.Advance(time.Minute)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run() = %v", err)
	}
}

type countingPoster struct {
	n     chan int
	count int
}

func (p *countingPoster) Health(context.Context, string, wire.HealthReport) error {
	p.count++
	p.n <- p.count
	return nil
}

// Until the agent is enrolled nothing is posted (the daemon would refuse
// a report without the node's certificate); the Xids read meanwhile go
// out with the first report after enrollment.
func TestNotEnrolledCarries(t *testing.T) {
	root := hostRoot(t, 0)
	write(t, root.Path(KernLog), xidLine("18", 79))
	p := &poster{}
	w := newWatch(root, fakeexec.New(nil), p)
	enrolled := false
	w.Enrolled = func() bool { return enrolled }
	w.Pass(context.Background())
	if len(p.got) != 0 {
		t.Fatalf("%d reports posted before enrollment; want none", len(p.got))
	}
	enrolled = true
	if r := w.Pass(context.Background()); len(p.got) != 1 || codes(r.Xids) != "79" {
		t.Errorf("after enrollment: %d posted, Xids %q; want one with the Xid 79", len(p.got), codes(r.Xids))
	}
}
