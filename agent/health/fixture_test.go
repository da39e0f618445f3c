package health

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var t0 = time.Date(2026, 7, 14, 8, 0, 0, 0, time.UTC)

// hostRoot is a fixture host: a boot id and n NVIDIA GPUs on the PCI bus
// (an NVSwitch too, which does not count).
func hostRoot(t testing.TB, n int) hostroot.Root {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"proc/sys/kernel/random/boot_id": "7d9c2f3e-boot\n",
		"sys/bus/pci/devices/0000:05:00.0/vendor": "0x10de\n", "sys/bus/pci/devices/0000:05:00.0/class": "0x068000\n"}
	for i := range n {
		dev := fmt.Sprintf("sys/bus/pci/devices/0000:%02x:00.0/", 0x18+i)
		files[dev+"vendor"], files[dev+"class"] = "0x10de\n", "0x030200\n"
	}
	for p, s := range files {
		write(t, filepath.Join(root, p), s)
	}
	return hostroot.Root(root)
}

func write(t testing.TB, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func recorded(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "task", "gpu", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// helpFor is --help-query-gpu offering exactly fields.
func helpFor(fields []string) string {
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "\"%s\"\nDescription of %s.\n\n", f, f)
	}
	return b.String()
}

// smi answers nvidia-smi's read-only invocations.
func smi(help, query, nvlinkS, nvlinkE string) fakeexec.Func {
	return func(args []string) ([]byte, error) {
		switch {
		case len(args) == 1 && args[0] == "--help-query-gpu":
			return []byte(help), nil
		case len(args) > 0 && strings.HasPrefix(args[0], "--query-gpu="):
			return []byte(query), nil
		case len(args) == 2 && args[0] == "nvlink" && args[1] == "-s":
			return []byte(nvlinkS), nil
		case len(args) == 2 && args[0] == "nvlink" && args[1] == "-e":
			return []byte(nvlinkE), nil
		}
		return nil, fakeexec.Exit("nvidia-smi", 2, "unexpected "+strings.Join(args, " "))
	}
}

// journal answers journalctl -k with text and a cursor, and records the
// cursor it was asked to start after.
func journal(text string, after *[]string) fakeexec.Func {
	return func(args []string) ([]byte, error) {
		for _, a := range args {
			if c, ok := strings.CutPrefix(a, "--after-cursor="); ok {
				*after = append(*after, c)
				return []byte("-- cursor: s=2\n"), nil
			}
		}
		return []byte(text + "-- cursor: s=1\n"), nil
	}
}

// poster answers each post with the next of errs (nil: accepted), then
// accepts.
type poster struct {
	errs []error
	got  []wire.HealthReport
}

func (p *poster) Health(_ context.Context, node string, r wire.HealthReport) error {
	p.got = append(p.got, r)
	if len(p.errs) == 0 {
		return nil
	}
	err := p.errs[0]
	p.errs = p.errs[1:]
	return err
}

func newWatch(root hostroot.Root, ex *fakeexec.Runner, p Poster) *Watch {
	return &Watch{NodeID: "node-1", Interval: time.Minute, Root: root, Exec: ex, Post: p,
		Readers: []gpu.Reader{gpu.NVIDIA{Exec: ex}, gpu.AMD{Exec: ex, Root: root}}, Clock: clockwork.NewFakeClockAt(t0)}
}
