package fakehost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// Report is the tenant residue left on a host, judged independently of
// the agent's validation: tenant users and processes, mounts that were not
// there when the host was provisioned, entries in /tmp, /var/tmp,
// /dev/shm, the crontab spool and the shared data directory
// (DefaultSharedDir), and GPU memory in use.
type Report struct {
	Users     []string `json:"users"`
	Processes []string `json:"processes"`
	Mounts    []string `json:"mounts"`
	Files     []string `json:"files"`
	GPUs      []string `json:"gpus"`
}

// Clean reports whether nothing is left.
func (r Report) Clean() bool {
	return len(r.Users)+len(r.Processes)+len(r.Mounts)+len(r.Files)+len(r.GPUs) == 0
}

// Inspect reports the residue on the host under root; keep are users that
// are not tenants (the deploy user; default "ubuntu").
func Inspect(root string, keep ...string) (Report, error) {
	if len(keep) == 0 {
		keep = []string{"ubuntu"}
	}
	var r Report
	hr := hostroot.Root(root)
	rng, err := hostinfo.ReadUIDRange(hr)
	if err != nil {
		return r, err
	}
	users, err := hostinfo.ReadUsers(hr)
	if err != nil {
		return r, err
	}
	t := hostinfo.Tenants{Range: rng, Keep: keep, AgentUID: -1}
	for _, u := range t.Select(users, nil) {
		r.Users = append(r.Users, fmt.Sprintf("%s (uid %d)", u.Name, u.UID))
	}
	procs, err := hostinfo.ReadProcs(hr)
	if err != nil {
		return r, err
	}
	kept := t.KeptUIDs(users)
	for _, p := range procs {
		if t.IsTenantUID(p.UID) && !kept[p.UID] {
			r.Processes = append(r.Processes, fmt.Sprintf("%d %s uid=%d", p.PID, p.Name, p.UID))
		}
	}
	mounts, err := hostinfo.ReadMounts(hr)
	if err != nil {
		return r, err
	}
	for _, m := range mounts {
		if !slices.Contains(BaseMounts, m.Point) {
			r.Mounts = append(r.Mounts, m.Point+" ("+m.FSType+")")
		}
	}
	for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm", "/var/spool/cron/crontabs", DefaultSharedDir} {
		ents, _ := os.ReadDir(Host{Root: root}.path(d))
		for _, e := range ents {
			r.Files = append(r.Files, d+"/"+e.Name())
		}
	}
	r.GPUs, err = gpuResidue(root)
	return r, err
}

// gpuResidue lists the GPUs with memory in use or a live compute process.
func gpuResidue(root string) ([]string, error) {
	s, err := fakesmi.Load(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	h := Host{Root: root}
	var out []string
	if n := s.NVIDIA; n != nil {
		for _, g := range n.GPUs {
			used := g.LeakedMiB
			for _, p := range n.Processes {
				if p.GPU == g.UUID && h.alive(p.PID) {
					used += p.UsedMiB
				}
			}
			if used > 0 {
				out = append(out, fmt.Sprintf("%s (index %d): %d MiB used", g.UUID, g.Index, used))
			}
		}
	}
	if a := s.AMD; a != nil {
		for _, g := range a.GPUs {
			used := g.LeakedMB
			for _, p := range a.Processes {
				if p.GPU == fmt.Sprint(g.Index) && h.alive(p.PID) {
					used += p.UsedMiB
				}
			}
			if used > 0 {
				out = append(out, fmt.Sprintf("%s (index %d): %d MB used", g.UUID, g.Index, used))
			}
		}
	}
	return out, nil
}

func (h Host) alive(pid int) bool {
	_, err := os.Stat(h.path(fmt.Sprintf("/proc/%d", pid)))
	return err == nil
}
