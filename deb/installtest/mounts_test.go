//go:build integration

package installtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mountsUnder lists the mount points at or below dir, deepest last, from
// the kernel's own table.
func mountsUnder(dir string) ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read mount table: %w", err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) < 5 {
			continue
		}
		mp := unescapeMount(fields[4])
		if mp == dir || strings.HasPrefix(mp, dir+"/") {
			out = append(out, mp)
		}
	}
	return out, s.Err()
}

// unescapeMount undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMount(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

// mount runs mount(8) with args, failing the test on error.
func mount(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Fatalf("mount %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// unmountAll unmounts every mount at or below dir, deepest first, retrying
// a busy one and falling back to a lazy unmount; it returns an error when
// a mount is still there afterwards.
func unmountAll(dir string) error {
	for attempt := 0; attempt < 20; attempt++ {
		mps, err := mountsUnder(dir)
		if err != nil {
			return err
		}
		if len(mps) == 0 {
			return nil
		}
		mp := mps[len(mps)-1]
		args := []string{mp}
		if attempt >= 10 {
			args = []string{"-l", mp}
		}
		if exec.Command("umount", args...).Run() != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	mps, err := mountsUnder(dir)
	if err == nil && len(mps) > 0 {
		err = fmt.Errorf("still mounted: %s", strings.Join(mps, ", "))
	}
	return err
}

// removeRoot deletes a test root's parent directory, but only once
// nothing is mounted under it: a recursive delete through a bind mount of
// /dev would delete the host's device nodes. The root goes first, the
// owner file last, so a failed delete is retried by a later sweep.
func removeRoot(parent string) error {
	mps, err := mountsUnder(parent)
	if err != nil {
		return err
	}
	if len(mps) > 0 {
		return fmt.Errorf("not removing %s: still mounted: %s", parent, strings.Join(mps, ", "))
	}
	for _, dir := range []string{filepath.Join(parent, "root"), parent} {
		out, err := exec.Command("rm", "-rf", "--one-file-system", filepath.Clean(dir)).CombinedOutput()
		if err != nil {
			return fmt.Errorf("remove %s: %v: %s", dir, err, out)
		}
	}
	return nil
}
