package gpu

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var (
	// "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c...)"
	nvlinkGPU = regexp.MustCompile(`^GPU \d+: .*\(UUID: (GPU-[0-9a-fA-F-]+)\)`)
	// "Link 0: 26.562 GB/s", "Link 1: <inactive>"
	nvlinkState = regexp.MustCompile(`^Link (\d+): (.+)$`)
	// "Link 0: Replay Errors: 0"
	nvlinkCounter = regexp.MustCompile(`^Link (\d+): ([A-Za-z][A-Za-z ]*): (\d+)$`)
)

// ParseNVLinks reads nvidia-smi nvlink -s (status) and nvlink -e (error
// counters), both one "GPU n: name (UUID: ...)" header per GPU followed
// by indented "Link n: ..." lines, into each GPU's links by UUID. A link
// reads active unless its status is <inactive>; lines of another shape
// are skipped.
func ParseNVLinks(status, errs string) map[string][]wire.NVLink {
	links := map[string]map[int]*wire.NVLink{}
	get := func(uuid string, n int) *wire.NVLink {
		if links[uuid] == nil {
			links[uuid] = map[int]*wire.NVLink{}
		}
		if links[uuid][n] == nil {
			links[uuid][n] = &wire.NVLink{Link: n}
		}
		return links[uuid][n]
	}
	each(status, func(uuid string, line string) {
		if m := nvlinkState.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			l := get(uuid, n)
			l.Active = !strings.Contains(m[2], "inactive")
			if l.Active {
				l.Speed = m[2]
			}
		}
	})
	each(errs, func(uuid string, line string) {
		if m := nvlinkCounter.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			v, _ := strconv.ParseInt(m[3], 10, 64)
			l := get(uuid, n)
			if l.Errors == nil {
				l.Errors = map[string]int64{}
			}
			l.Errors[m[2]] = v
		}
	})
	out := map[string][]wire.NVLink{}
	for uuid, byLink := range links {
		for _, l := range byLink {
			out[uuid] = append(out[uuid], *l)
		}
		sort.Slice(out[uuid], func(i, j int) bool { return out[uuid][i].Link < out[uuid][j].Link })
	}
	return out
}

// each calls f with every link line and the UUID of the GPU it is under.
func each(out string, f func(uuid, line string)) {
	uuid := ""
	for _, line := range lines(out) {
		t := strings.TrimSpace(line)
		if m := nvlinkGPU.FindStringSubmatch(t); m != nil {
			uuid = m[1]
			continue
		}
		if uuid != "" {
			f(uuid, t)
		}
	}
}

// readNVLinks adds each GPU's NVLink links to devs. A tool that does not
// answer nvlink (no NVLink on the board, an old driver) leaves them
// empty: unknown, never a failure on its own.
func (n NVIDIA) readNVLinks(ctx context.Context, devs []Device) {
	status, err := n.Exec.Exec(ctx, smi, "nvlink", "-s")
	if err != nil {
		return
	}
	errs, _ := n.Exec.Exec(ctx, smi, "nvlink", "-e")
	links := ParseNVLinks(string(status), string(errs))
	for i := range devs {
		setNVLinks(&devs[i].State, links[devs[i].ID.UUID])
	}
}

// setNVLinks records the counts of links and of those up, and keeps only
// the links that are down or count errors (eighteen clean links per GPU,
// twice per scrub, would crowd the evidence).
func setNVLinks(s *wire.GPUState, links []wire.NVLink) {
	if len(links) == 0 {
		return
	}
	total, active := int64(len(links)), int64(0)
	s.NVLinksTotal, s.NVLinksActive = &total, &active
	for _, l := range links {
		for k, v := range l.Errors {
			if v == 0 {
				delete(l.Errors, k)
			}
		}
		if l.Active {
			active++
		}
		if !l.Active || len(l.Errors) > 0 {
			s.NVLinks = append(s.NVLinks, l)
		}
	}
}

// nvlinkEvents lists a GPU's down links and non-zero error counters as
// history events: the tenancy's NVLink trouble, read before the reset
// clears the counters; they raise the DCGM level.
func nvlinkEvents(links []wire.NVLink) []string {
	var out []string
	for _, l := range links {
		if !l.Active {
			out = append(out, fmt.Sprintf("NVLink %d down", l.Link))
		}
		names := make([]string, 0, len(l.Errors))
		for k := range l.Errors {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if l.Errors[k] > 0 {
				out = append(out, fmt.Sprintf("NVLink %d: %d %s", l.Link, l.Errors[k], k))
			}
		}
	}
	return out
}
