package hostinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
)

// Proc is one process seen in /proc.
type Proc struct {
	PID  int
	Name string
	UID  int // real UID
}

// ReadProcs lists the processes under /proc, with their name and real UID
// from /proc/<pid>/status. A process that exits while being read is skipped.
func ReadProcs(root hostroot.Root) ([]Proc, error) {
	ents, err := os.ReadDir(root.Path("/proc"))
	if err != nil {
		return nil, fmt.Errorf("hostinfo: %w", err)
	}
	var out []Proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		p, ok := readStatus(root, pid)
		if ok {
			out = append(out, p)
		}
	}
	return out, nil
}

func readStatus(root hostroot.Root, pid int) (Proc, bool) {
	b, err := os.ReadFile(root.Path(fmt.Sprintf("/proc/%d/status", pid)))
	if err != nil {
		return Proc{}, false
	}
	p, uidSeen := Proc{PID: pid}, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch k {
		case "Name":
			p.Name = strings.TrimSpace(v)
		case "Uid":
			f := strings.Fields(v)
			if len(f) > 0 {
				p.UID, err = strconv.Atoi(f[0])
				uidSeen = err == nil
			}
		}
	}
	return p, uidSeen
}

// Exists reports whether /proc/<pid> is there.
func Exists(root hostroot.Root, pid int) bool {
	_, err := os.Stat(root.Path(fmt.Sprintf("/proc/%d", pid)))
	return err == nil
}

// DeviceHolders returns the PIDs with an open file descriptor on a path
// for which match returns true (e.g. /dev/nvidia*, /dev/kfd).
func DeviceHolders(root hostroot.Root, procs []Proc, match func(target string) bool) map[int][]string {
	out := map[int][]string{}
	for _, p := range procs {
		dir := root.Path(fmt.Sprintf("/proc/%d/fd", p.PID))
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			t, err := os.Readlink(dir + "/" + e.Name())
			if err == nil && match(t) {
				out[p.PID] = append(out[p.PID], t)
			}
		}
	}
	return out
}
