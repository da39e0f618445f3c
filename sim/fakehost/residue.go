package fakehost

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// Residue is what a tenant leaves on a host; Inject writes it. The JSON
// form is the simulator's residue route body.
type Residue struct {
	// User is the tenant user added, with a home (default "tenant1"); it
	// gets the next free UID from 1001 unless UID is set.
	User string `json:"user,omitempty"`
	UID  int    `json:"uid,omitempty"`
	// Process starts a process of the user; StuckProcess one in state D
	// that survives SIGKILL.
	Process      bool `json:"process,omitempty"`
	StuckProcess bool `json:"stuck_process,omitempty"`
	// Session logs the user in: logind state and /run/user/<uid> mounted.
	Session bool `json:"session,omitempty"`
	// Mount is a tenant NFS mount point (e.g. /mnt/tenant), outside every
	// allowlist: no cleanup task unmounts it, so validation finds it.
	// WekaMount is a wekafs mount, which storage cleanup (weka) unmounts.
	Mount     string `json:"mount,omitempty"`
	WekaMount string `json:"weka_mount,omitempty"`
	// GPUMemoryMiB is used on GPU 0 by a compute process of the user
	// (a process is started for it).
	GPUMemoryMiB int64 `json:"gpu_memory_mib,omitempty"`
	// ScratchFile leaves files of the user in /tmp and /var/tmp.
	ScratchFile bool `json:"scratch_file,omitempty"`
	// StuckGPU makes GPU 0 refuse reset while holding leaked memory, and
	// something holds its device so that the driver cannot be unloaded:
	// the residue a scrub cannot clear (the host needs a reboot).
	StuckGPU bool `json:"stuck_gpu,omitempty"`
	// RefuseReset (NVIDIA) makes GPU 0 refuse reset with leaked memory
	// while nothing holds the driver: the scrub's driver reload clears it.
	RefuseReset bool `json:"refuse_reset,omitempty"`
	// NarrowPCIe (NVIDIA) trains GPU 0's PCIe link at x8 of its x16;
	// NVLinkDown takes its NVLink 3 down: history events that raise the
	// DCGM level.
	NarrowPCIe bool `json:"narrow_pcie,omitempty"`
	NVLinkDown bool `json:"nvlink_down,omitempty"`
	// Xid is an Xid event the tenancy saw on GPU 0 (NVIDIA only): a
	// driver line in the kernel log; 48 (double-bit ECC) also counts
	// the uncorrectable ECC error, volatile and aggregate, as the driver
	// does; 79 (fallen off the bus) takes GPU 0 out of nvidia-smi's
	// answers and off the PCI bus.
	Xid int `json:"xid,omitempty"`
	// OwnedFiles leaves files owned by the user outside the scratch
	// paths: a KV cache in /dev/shm, model weights in SharedDir (default
	// /data/shared) and the user's crontab in /var/spool/cron/crontabs.
	// Ownership is set with lchown, so it takes a root-run simulator.
	OwnedFiles bool   `json:"owned_files,omitempty"`
	SharedDir  string `json:"shared_dir,omitempty"`
	// XGMIError (AMD) counts an XGMI error on GPU 0 during the tenancy
	// (error status, one uncorrectable and three correctable XGMI_WAFL
	// errors); KFDHolder starts a process of the user that holds
	// /dev/kfd open, which makes amdgpu refuse a reset.
	XGMIError bool `json:"xgmi_error,omitempty"`
	KFDHolder bool `json:"kfd_holder,omitempty"`
	// SwapGPU replaces GPU SwapGPU-1 (1-based; 0: none) with another
	// board: new UUID and serial, as a field swap leaves a host.
	SwapGPU int `json:"swap_gpu,omitempty"`
}

// Injected is what Inject wrote.
type Injected struct {
	User  string   `json:"user"`
	UID   int      `json:"uid"`
	PIDs  []int    `json:"pids,omitempty"`
	Files []string `json:"files,omitempty"`
}

// Inject writes r into the host under root.
func Inject(root string, r Residue) (Injected, error) {
	h := Host{Root: root}
	if r.Xid < 0 || r.Xid > 999 {
		return Injected{}, fmt.Errorf("fakehost: residue: xid %d: want an Xid code from 1 to 999", r.Xid)
	}
	if r.User == "" {
		r.User = "tenant1"
	}
	u, ok := h.lookup(r.User)
	if !ok {
		var err error
		if u, err = h.addUser(r.User, r.UID); err != nil {
			return Injected{}, err
		}
	}
	out := Injected{User: u.name, UID: u.uid}
	if r.Process || r.GPUMemoryMiB > 0 {
		out.PIDs = append(out.PIDs, h.startProc(u.uid, "python3", "S"))
	}
	if r.StuckProcess {
		out.PIDs = append(out.PIDs, h.startProc(u.uid, "fio", "D"))
	}
	if r.KFDHolder {
		pid := h.startProc(u.uid, "rocm-app", "S")
		out.PIDs = append(out.PIDs, pid)
		if err := h.openFile(pid, "/dev/kfd"); err != nil {
			return out, fmt.Errorf("fakehost: residue: %w", err)
		}
	}
	var err error
	for _, f := range []func() error{
		func() error { return h.session(r.Session, u.uid) },
		func() error { return h.mount(r.Mount, "nfs4", "storage.tenant:/export/"+u.name) },
		func() error { return h.mount(r.WekaMount, "wekafs", "weka01/"+u.name) },
		func() error { return h.gpu(r, out.PIDs) },
		func() error { return h.xid(r.Xid, out.PIDs) },
	} {
		if err == nil {
			err = f()
		}
	}
	if err == nil && r.ScratchFile {
		for _, p := range []string{"/tmp/" + u.name + "-ckpt.bin", "/var/tmp/" + u.name + "/run.log"} {
			if err == nil {
				err = writeFile(root, p, "tenant data\n")
				out.Files = append(out.Files, p)
			}
		}
	}
	if err == nil && r.OwnedFiles {
		var files []string
		files, err = h.ownedFiles(u, r.SharedDir)
		out.Files = append(out.Files, files...)
	}
	if err == nil && r.SwapGPU > 0 {
		err = h.swapGPU(r.SwapGPU - 1)
	}
	if err != nil {
		return out, fmt.Errorf("fakehost: residue: %w", err)
	}
	return out, nil
}

// addUser appends a user with a personal group and a home.
func (h Host) addUser(name string, uid int) (account, error) {
	if uid == 0 {
		uid = 1001
		for h.uidTaken(uid) || uid == os.Getuid() { // the simulated agent runs as this user
			uid++
		}
	}
	id := strconv.Itoa(uid)
	home := "/home/" + name
	for p, line := range map[string]string{
		"/etc/passwd": name + ":x:" + id + ":" + id + "::" + home + ":/bin/bash",
		"/etc/shadow": name + ":$6$sim$hash:20000:0:99999:7:::",
		"/etc/group":  name + ":x:" + id + ":",
	} {
		if err := appendLine(h.path(p), line); err != nil {
			return account{}, err
		}
	}
	if err := writeFile(h.Root, home+"/.bash_history", "nvidia-smi\n"); err != nil {
		return account{}, err
	}
	return account{name: name, uid: uid, gid: id, home: home}, nil
}

func (h Host) uidTaken(uid int) bool {
	_, ok := h.lookup(strconv.Itoa(uid))
	return ok
}

// startProc adds /proc/<pid> for a process of uid in state and returns
// its PID (the first free one from 4000).
func (h Host) startProc(uid int, name, state string) int {
	pid := 4000
	for {
		if _, err := os.Stat(h.path(fmt.Sprintf("/proc/%d", pid))); os.IsNotExist(err) {
			break
		}
		pid++
	}
	_ = writeFile(h.Root, fmt.Sprintf("/proc/%d/status", pid), Status(pid, name, uid, state))
	return pid
}

// openFile gives process pid an open file descriptor on target, as
// /proc/<pid>/fd shows it: a link to the path.
func (h Host) openFile(pid int, target string) error {
	dir := h.path(fmt.Sprintf("/proc/%d/fd", pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.Symlink(target, filepath.Join(dir, "3"))
}

func (h Host) session(on bool, uid int) error {
	if !on {
		return nil
	}
	id := strconv.Itoa(uid)
	if err := writeFile(h.Root, SessionPath+id, "STATE=active\n"); err != nil {
		return err
	}
	return h.mount("/run/user/"+id, "tmpfs", "tmpfs")
}

// mount appends a mountinfo line for point (none when point is "").
func (h Host) mount(point, fstype, source string) error {
	if point == "" {
		return nil
	}
	if !filepath.IsAbs(point) || strings.ContainsAny(point, " \t\n\\") {
		return fmt.Errorf("mount point %q: want an absolute path without blanks", point)
	}
	_, mounts, err := h.mountLines()
	if err != nil {
		return err
	}
	id, parent := 100, 25
	for _, m := range mounts {
		id = max(id, m.ID+1)
		if hostinfo.Under(point, m.Point) {
			parent = m.ID
		}
	}
	if err := os.MkdirAll(h.path(point), 0o755); err != nil {
		return err
	}
	line := fmt.Sprintf("%d %d 0:%d / %s rw,relatime shared:%d - %s %s rw", id, parent, id, point, id, fstype, source)
	return appendLine(h.path(hostinfo.MountinfoPath), line)
}

// gpu adds the compute process and the stuck GPU to the fake GPU state.
func (h Host) gpu(r Residue, pids []int) error {
	if r.GPUMemoryMiB <= 0 && !r.StuckGPU && !r.RefuseReset && !r.NarrowPCIe && !r.NVLinkDown && !r.XGMIError {
		return nil
	}
	s, err := fakesmi.Load(h.Root)
	if err != nil {
		return err
	}
	switch {
	case s.NVIDIA != nil && len(s.NVIDIA.GPUs) > 0:
		g := &s.NVIDIA.GPUs[0]
		if r.GPUMemoryMiB > 0 {
			s.NVIDIA.Processes = append(s.NVIDIA.Processes, fakesmi.GPUProcess{GPU: g.UUID, PID: pids[0], Name: "python3", UsedMiB: r.GPUMemoryMiB})
		}
		if r.StuckGPU {
			g.RefuseReset, g.Held, g.LeakedMiB = true, true, max(g.LeakedMiB, 2048)
		}
		if r.RefuseReset {
			g.RefuseReset, g.LeakedMiB = true, max(g.LeakedMiB, 2048)
		}
		if r.NarrowPCIe {
			g.PCIeWidth = 8
		}
		if r.NVLinkDown {
			g.NVLinks, g.NVLinkDown = max(g.NVLinks, 4), []int{3}
		}
	case s.AMD != nil && len(s.AMD.GPUs) > 0:
		g := &s.AMD.GPUs[0]
		if r.GPUMemoryMiB > 0 {
			s.AMD.Processes = append(s.AMD.Processes, fakesmi.GPUProcess{GPU: "0", PID: pids[0], Name: "python3", UsedMiB: r.GPUMemoryMiB})
		}
		if r.StuckGPU {
			g.RefuseReset, g.LeakedMB = true, max(g.LeakedMB, 8192)
		}
		if r.XGMIError {
			g.XGMIStatus, g.XGMIUncorrectable, g.XGMICorrectable = 1, g.XGMIUncorrectable+1, g.XGMICorrectable+3
		}
	default:
		return fmt.Errorf("the host has no GPUs")
	}
	return fakesmi.Save(h.Root, s)
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	return errors.Join(err, f.Close())
}

func writeFile(root, p, content string) error {
	path := filepath.Join(root, filepath.Clean("/"+p))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}
