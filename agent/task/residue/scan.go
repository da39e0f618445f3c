package residue

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Kinds of residue, as wire.OwnedItem.Kind.
const (
	KindFile   = "file"
	KindShm    = "posix_shm"
	KindMqueue = "posix_mqueue"
	KindSpool  = "spool"
	KindSysV   = "sysv_ipc"
	KindLinger = "linger"
)

// Removable are the host trees whose tenant-owned entries storage
// cleanup removes; a tenant's file anywhere else fails validation.
var Removable = []string{"/dev/shm", "/dev/mqueue", "/var/spool/cron/crontabs", "/var/spool/cron/atjobs",
	"/var/spool/cron/atspool", "/var/spool/at"}

// ipcTrees are scanned although they sit under /dev.
var ipcTrees = map[string]string{"/dev/shm": KindShm, "/dev/mqueue": KindMqueue}

// skipTrees are never walked: kernel and runtime trees (a tenant's
// /run/user mount is the mounts check's), and the agent's own state.
var skipTrees = []string{"/proc", "/sys", "/dev", "/run", "/snap", "/var/lib/snapd", "/var/snap"}

// Owner returns the owning UID and GID of the entry at host path p,
// given its Lstat information.
type Owner func(p string, fi fs.FileInfo) (uid, gid int, ok bool)

// StatOwner reads them from the kernel's stat.
func StatOwner(_ string, fi fs.FileInfo) (int, int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// Rule says whose IDs are residue.
type Rule struct {
	hostinfo.Tenants
	// KeptUIDs and KeptGIDs belong to kept users: never residue.
	KeptUIDs, KeptGIDs map[int]bool
	// Mounts are the host's mount points other than "/"; the walk does
	// not enter them (the mounts check judges them).
	Mounts []string
	Owner  Owner
}

// Tenant reports whether uid or gid is a departing tenant's.
func (r Rule) Tenant(uid, gid int) bool {
	return (r.IsTenantUID(uid) && !r.KeptUIDs[uid]) || (r.IsTenantUID(gid) && !r.KeptGIDs[gid])
}

// Scan returns everything the rule's tenants own on the host, sorted.
func Scan(root hostroot.Root, r Rule) ([]wire.OwnedItem, error) {
	if r.Owner == nil {
		r.Owner = StatOwner
	}
	var out []wire.OwnedItem
	var errs []error
	out, errs = walk(root, "/", r, out, errs)
	for _, t := range []string{"/dev/shm", "/dev/mqueue"} {
		out, errs = walk(root, t, r, out, errs)
	}
	ipc, err := sysvIPC(root, r)
	out, errs = append(out, ipc...), append(errs, err)
	lg, err := linger(root, r)
	out, errs = append(out, lg...), append(errs, err)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, errors.Join(errs...)
}

// walk adds the tenant-owned entries under start. It never follows a
// link (WalkDir does not) and prunes skipped trees and other mounts.
func walk(root hostroot.Root, start string, r Rule, out []wire.OwnedItem, errs []error) ([]wire.OwnedItem, []error) {
	base := root.Path("/")
	err := filepath.WalkDir(root.Path(start), func(p string, d fs.DirEntry, err error) error {
		host := "/" + mustRel(base, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			errs = append(errs, fmt.Errorf("%s: %w", host, errors.Unwrap(err)))
			return nil
		}
		if d.IsDir() && host != start && r.prune(host) {
			return fs.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone meanwhile
		}
		if uid, gid, ok := r.Owner(host, fi); ok && r.Tenant(uid, gid) && host != start {
			out = append(out, wire.OwnedItem{Kind: kindOf(host), Path: host, UID: uid, GID: gid})
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, fmt.Errorf("residue: walk %s: %w", start, err))
	}
	return out, errs
}

func (r Rule) prune(host string) bool {
	for _, t := range skipTrees {
		if hostinfo.Under(host, t) {
			return true
		}
	}
	return slices.Contains(r.Mounts, host)
}

func kindOf(host string) string {
	for t, k := range ipcTrees {
		if hostinfo.Under(host, t) {
			return k
		}
	}
	for _, t := range Removable {
		if hostinfo.Under(host, t) {
			return KindSpool
		}
	}
	return KindFile
}

func mustRel(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// exists reports whether host path p is there (not following a link).
func exists(root hostroot.Root, p string) bool {
	_, err := os.Lstat(root.Path(p))
	return err == nil
}
