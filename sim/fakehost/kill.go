package fakehost

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// kill is procps kill: "kill [-SIGNAL | -s SIGNAL] PID...". Any signal
// ends a process (the simulated processes handle none) unless it is
// stuck. It exits 1 when some PID does not exist, as procps does.
func (h Host) kill(args []string, stderr io.Writer) int {
	pids := args
	switch {
	case len(args) > 1 && args[0] == "-s":
		pids = args[2:]
	case len(args) > 0 && strings.HasPrefix(args[0], "-"):
		pids = args[1:]
	}
	if len(pids) == 0 {
		fmt.Fprintln(stderr, "kill: not enough arguments")
		return 2
	}
	code := 0
	for _, a := range pids {
		pid, err := strconv.Atoi(a)
		if err != nil || pid <= 0 {
			fmt.Fprintf(stderr, "kill: failed to parse argument: '%s'\n", a)
			code = 1
			continue
		}
		dir := h.path(fmt.Sprintf("/proc/%d", pid))
		if _, err := os.Stat(dir); err != nil {
			fmt.Fprintf(stderr, "kill: (%d) - No such process\n", pid)
			code = 1
			continue
		}
		if !h.stuck(pid) {
			_ = os.RemoveAll(dir)
		}
	}
	return code
}

func (h Host) stuck(pid int) bool {
	if h.Stuck != nil {
		return h.Stuck(pid)
	}
	return procState(h.Root, pid) == "D"
}

// procState returns the state letter of /proc/<pid>/status ("" if none).
func procState(root string, pid int) string {
	b, err := os.ReadFile(Host{Root: root}.path(fmt.Sprintf("/proc/%d/status", pid)))
	if err != nil {
		return ""
	}
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "State:"); ok {
			if f := strings.Fields(v); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// pidsOf returns the PIDs under /proc whose real UID is uid.
func (h Host) pidsOf(uid int) []int {
	ents, _ := os.ReadDir(h.path("/proc"))
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(h.path(fmt.Sprintf("/proc/%d/status", pid)))
		if err != nil {
			continue
		}
		for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
			if v, ok := strings.CutPrefix(sc.Text(), "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 && f[0] == strconv.Itoa(uid) {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}
