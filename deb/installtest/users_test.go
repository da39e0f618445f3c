//go:build integration

package installtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// account is one /etc/passwd entry of a root.
type account struct {
	name        string
	uid, gid    int
	home, shell string
}

// user returns name's /etc/passwd entry in the root, ok false if absent.
func (r *root) user(name string) (account, bool) {
	for _, f := range r.dbEntries("/etc/passwd", name) {
		if len(f) < 7 {
			continue
		}
		uid, _ := strconv.Atoi(f[2])
		gid, _ := strconv.Atoi(f[3])
		return account{name: name, uid: uid, gid: gid, home: f[5], shell: f[6]}, true
	}
	return account{}, false
}

// group returns name's gid in the root's /etc/group, ok false if absent.
func (r *root) group(name string) (int, bool) {
	for _, f := range r.dbEntries("/etc/group", name) {
		if len(f) >= 3 {
			gid, err := strconv.Atoi(f[2])
			return gid, err == nil
		}
	}
	return 0, false
}

// dbEntries returns the colon-separated fields of the lines of a
// passwd-style file whose first field is name.
func (r *root) dbEntries(file, name string) [][]string {
	var out [][]string
	for _, line := range strings.Split(r.read(file), "\n") {
		if f := strings.Split(line, ":"); f[0] == name {
			out = append(out, f)
		}
	}
	return out
}

// owner is the mode and numeric owner of p inside the root.
func (r *root) owner(p string) (os.FileMode, int, int) {
	r.t.Helper()
	st, err := os.Stat(r.path(p))
	if err != nil {
		r.t.Fatal(err)
	}
	sys := st.Sys().(*syscall.Stat_t)
	return st.Mode(), int(sys.Uid), int(sys.Gid)
}
