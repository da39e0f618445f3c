package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"syscall"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Scrub empties host directory dir and returns its check, named
// "scrub:<dir>". What could not be removed is listed as items.
func Scrub(root hostroot.Root, dir string) wire.Check {
	name := "scrub:" + dir
	if err := CheckPath(dir); err != nil {
		return task.Check(name, []string{dir}, "refused: "+err.Error())
	}
	if l := symlinkOnPath(root, dir); l != "" {
		return task.Check(name, []string{l}, "refused: "+l+" is a symlink; not followed")
	}
	fi, err := os.Lstat(root.Path(dir))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return task.Check(name, nil, "absent")
	case err != nil:
		return task.Check(name, []string{dir}, err.Error())
	case !fi.IsDir():
		return task.Check(name, []string{dir}, "not a directory")
	}
	mounts, err := hostinfo.ReadMounts(root)
	if err != nil {
		return task.Check(name, []string{dir}, err.Error())
	}
	r, err := os.OpenRoot(root.Path(dir))
	if err != nil {
		return task.Check(name, []string{dir}, err.Error())
	}
	defer r.Close()
	w := walker{r: r, dir: dir, dev: devOf(fi), mounts: mountPoints(mounts, dir)}
	w.empty(".", dir)
	if len(w.left) > 0 {
		return task.Check(name, w.left, fmt.Sprintf("%d removed; these were left", w.removed))
	}
	return task.Check(name, nil, fmt.Sprintf("%d removed", w.removed))
}

// walker removes everything under one os.Root without following links
// or crossing mount points.
type walker struct {
	r       *os.Root
	dir     string // the scrubbed host directory
	dev     uint64
	mounts  []string // host paths of mount points under the scrubbed dir
	removed int
	left    []string
}

// empty removes the contents of rel (host path host); it reports whether
// rel is now empty.
func (w *walker) empty(rel, host string) bool {
	f, err := w.r.Open(rel)
	if err != nil {
		w.left = append(w.left, host+": "+err.Error())
		return false
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		w.left = append(w.left, host+": "+err.Error())
		return false
	}
	clean := true
	for _, e := range ents {
		clean = w.remove(path.Join(rel, e.Name()), path.Join(host, e.Name())) && clean
	}
	return clean
}

// remove removes one entry: a link as a link, a directory after its
// contents, never a mount point or anything on another device.
func (w *walker) remove(rel, host string) bool {
	if slices.Contains(w.mounts, host) {
		w.left = append(w.left, host+": mount point, not crossed")
		return false
	}
	fi, err := w.r.Lstat(rel)
	if err != nil {
		w.left = append(w.left, host+": "+err.Error())
		return false
	}
	if path.Dir(rel) == "." && Preserved(w.dir, path.Base(rel), fi) {
		return true
	}
	if fi.IsDir() {
		if devOf(fi) != w.dev {
			w.left = append(w.left, host+": another filesystem, not crossed")
			return false
		}
		if !w.empty(rel, host) {
			return false
		}
	}
	if err := w.r.Remove(rel); err != nil {
		w.left = append(w.left, host+": "+err.Error())
		return false
	}
	w.removed++
	return true
}

func devOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev)
	}
	return 0
}

func mountPoints(ms []hostinfo.Mount, dir string) []string {
	var out []string
	for _, m := range ms {
		if m.Point != dir && hostinfo.Under(m.Point, dir) {
			out = append(out, m.Point)
		}
	}
	return out
}
