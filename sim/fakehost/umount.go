package fakehost

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
)

// umount is util-linux umount: "umount [-l] [-f] PATH". It removes the
// newest mountinfo line mounted on PATH; exit 32 when PATH is not
// mounted or another mount lies under it (target is busy).
func (h Host) umount(args []string, stderr io.Writer) int {
	var point string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			point = a
		}
	}
	if point == "" {
		fmt.Fprintln(stderr, "umount: bad usage")
		return 1
	}
	lines, mounts, err := h.mountLines()
	if err != nil {
		fmt.Fprintf(stderr, "umount: %v\n", err)
		return 32
	}
	at := -1
	for i, m := range mounts {
		switch {
		case m.Point == point:
			at = i
		case at >= 0 && hostinfo.Under(m.Point, point):
			fmt.Fprintf(stderr, "umount: %s: target is busy.\n", point)
			return 32
		}
	}
	if at < 0 {
		fmt.Fprintf(stderr, "umount: %s: not mounted.\n", point)
		return 32
	}
	if err := h.writeMounts(append(lines[:at:at], lines[at+1:]...)); err != nil {
		fmt.Fprintf(stderr, "umount: %v\n", err)
		return 32
	}
	return 0
}

// mountLines reads the mountinfo file as lines and parsed mounts, one to
// one.
func (h Host) mountLines() ([]string, []hostinfo.Mount, error) {
	b, err := os.ReadFile(h.path(hostinfo.MountinfoPath))
	if err != nil {
		return nil, nil, err
	}
	var lines []string
	var mounts []hostinfo.Mount
	for l := range strings.SplitSeq(strings.TrimRight(string(b), "\n"), "\n") {
		m, err := hostinfo.ParseMountinfo(l)
		if err != nil || len(m) != 1 {
			continue
		}
		lines, mounts = append(lines, l), append(mounts, m[0])
	}
	return lines, mounts, nil
}

func (h Host) writeMounts(lines []string) error {
	s := strings.Join(lines, "\n")
	if len(lines) > 0 {
		s += "\n"
	}
	return os.WriteFile(h.path(hostinfo.MountinfoPath), []byte(s), 0o644)
}
