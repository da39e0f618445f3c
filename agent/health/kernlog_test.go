package health

import (
	"context"
	"os"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
)

// journalctl: the first read is the whole boot, each later one starts
// after the cursor the previous one printed.
func TestKernFollowerJournal(t *testing.T) {
	var after []string
	ex := fakeexec.New(map[string]fakeexec.Func{"journalctl": journal(xidLine("18", 48), &after)})
	var k kernFollower
	text, _, err := k.read(context.Background(), ex, "")
	if err != nil || text != xidLine("18", 48) {
		t.Fatalf("first read %q, %v; want the boot's log without the cursor line", text, err)
	}
	if text, _, _ = k.read(context.Background(), ex, ""); text != "" || len(after) != 1 || after[0] != "s=1" {
		t.Errorf("second read %q after %v; want nothing new, after cursor s=1", text, after)
	}
	if calls := ex.Calls(); calls[0] != "journalctl -k --no-pager -o short-iso --show-cursor -b" {
		t.Errorf("first call %q; want this boot's kernel log", calls[0])
	}
}

// kern.log: each read starts where the last ended; a line still being
// written waits for the next read; a file that shrank (rotated) is read
// from its start.
func TestKernFollowerFile(t *testing.T) {
	root := hostRoot(t, 0)
	ex := fakeexec.New(nil)
	var k kernFollower
	read := func() string {
		t.Helper()
		text, _, err := k.read(context.Background(), ex, root)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	a, b := xidLine("18", 48), xidLine("2a", 79)
	write(t, root.Path(KernLog), a+b[:20])
	if got := read(); got != a {
		t.Errorf("first read %q; want the whole first line only", got)
	}
	write(t, root.Path(KernLog), a+b)
	if got := read(); got != b {
		t.Errorf("second read %q; want the line finished since", got)
	}
	write(t, root.Path(KernLog), b)
	if got := read(); got != b {
		t.Errorf("after rotation %q; want the new file from its start", got)
	}
	if err := os.Rename(root.Path(KernLog), root.Path(KernLog+".1")); err != nil {
		t.Fatal(err)
	}
	write(t, root.Path(KernLog), a+a+a)
	if got := read(); got != a+a+a {
		t.Errorf("a new, longer file %q; want it from its start", got)
	}
}
