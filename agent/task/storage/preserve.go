package storage

import (
	"io/fs"
	"path"
	"slices"
	"syscall"
)

// preserved are the root-owned top-level entries of /tmp and /var/tmp
// that running system services own (systemd PrivateTmp directories, snap
// and X11 socket directories); systemd-tmpfiles excludes them too.
var preserved = []string{"systemd-private-*", "snap-private-tmp", ".X11-unix", ".ICE-unix", ".XIM-unix", ".font-unix", ".Test-unix"}

// Preserved reports whether the top-level entry name of scratch directory
// dir, with info fi, belongs to the system and is kept: only in /tmp and
// /var/tmp, only when owned by root.
func Preserved(dir, name string, fi fs.FileInfo) bool {
	if !slices.Contains(TempPaths, dir) {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid != 0 {
		return false
	}
	for _, p := range preserved {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// SymlinkOnPath returns the first component of host path p that is a
// symlink under root, or "".
var SymlinkOnPath = symlinkOnPath
