package fakehost

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// userdel is shadow's userdel: "userdel [-r] [-f] NAME". It removes the
// user's /etc/passwd and /etc/shadow lines, its personal group and its
// memberships in /etc/group and /etc/gshadow, and with -r its home and
// mail spool. Exit codes as shadow's: 6 no such user, 8 the user has a
// running process (without -f), 2 bad usage, 12 the home could not be
// removed.
func (h Host) userdel(args []string, stderr io.Writer) int {
	var name string
	remove, force := false, false
	for _, a := range args {
		switch a {
		case "-r", "--remove":
			remove = true
		case "-f", "--force":
			force = true
		default:
			if strings.HasPrefix(a, "-") || name != "" {
				fmt.Fprintln(stderr, "Usage: userdel [options] LOGIN")
				return 2
			}
			name = a
		}
	}
	if name == "" {
		fmt.Fprintln(stderr, "Usage: userdel [options] LOGIN")
		return 2
	}
	u, ok := h.lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "userdel: user '%s' does not exist\n", name)
		return 6
	}
	if pids := h.pidsOf(u.uid); len(pids) > 0 && !force {
		fmt.Fprintf(stderr, "userdel: user %s is currently used by process %d\n", name, pids[0])
		return 8
	}
	for _, f := range []string{"/etc/passwd", "/etc/shadow"} {
		if err := h.editLines(f, func(l string) (string, bool) { return l, !strings.HasPrefix(l, name+":") }); err != nil {
			fmt.Fprintf(stderr, "userdel: cannot update %s: %v\n", f, err)
			return 1
		}
	}
	for _, f := range []string{"/etc/group", "/etc/gshadow"} {
		if err := h.editLines(f, dropMember(name, u.gid)); err != nil {
			fmt.Fprintf(stderr, "userdel: cannot update %s: %v\n", f, err)
			return 10
		}
	}
	if remove {
		return h.removeHome(name, u.home, stderr)
	}
	return 0
}

func (h Host) removeHome(name, home string, stderr io.Writer) int {
	_ = os.Remove(h.path("/var/mail/" + name))
	if home == "" || home == "/" || !strings.HasPrefix(home, "/") {
		return 0
	}
	if _, err := os.Lstat(h.path(home)); os.IsNotExist(err) {
		fmt.Fprintf(stderr, "userdel: %s home directory (%s) not found\n", name, home)
		return 0
	}
	if err := os.RemoveAll(h.path(home)); err != nil {
		fmt.Fprintf(stderr, "userdel: error removing directory %s\n", home)
		return 12
	}
	return 0
}

// dropMember removes the user's personal group (named after it, with its
// primary GID) and the user from every other group's member list.
func dropMember(name, gid string) func(string) (string, bool) {
	return func(l string) (string, bool) {
		f := strings.Split(l, ":")
		if len(f) < 4 {
			return l, true
		}
		if f[0] == name && (len(f) < 3 || f[2] == gid || gid == "") {
			return "", false
		}
		last := len(f) - 1
		members := strings.Split(f[last], ",")
		if i := slices.Index(members, name); i >= 0 {
			f[last] = strings.Join(slices.Delete(members, i, i+1), ",")
		}
		return strings.Join(f, ":"), true
	}
}

// editLines rewrites host file p keeping the lines keep returns true for,
// as keep rewrote them. A missing file is left missing.
func (h Host) editLines(p string, keep func(string) (string, bool)) error {
	b, err := os.ReadFile(h.path(p))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var out []string
	for l := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		if nl, ok := keep(l); ok {
			out = append(out, nl)
		}
	}
	s := strings.Join(out, "\n")
	if len(out) > 0 {
		s += "\n"
	}
	return os.WriteFile(h.path(p), []byte(s), 0o644)
}

// account is one /etc/passwd entry.
type account struct {
	name, gid, home string
	uid             int
}

// lookup finds a user in /etc/passwd by name or numeric UID.
func (h Host) lookup(who string) (account, bool) {
	b, _ := os.ReadFile(h.path("/etc/passwd"))
	for l := range strings.SplitSeq(string(b), "\n") {
		f := strings.Split(l, ":")
		if len(f) < 7 || (f[0] != who && f[2] != who) {
			continue
		}
		var uid int
		if _, err := fmt.Sscan(f[2], &uid); err != nil {
			continue
		}
		return account{name: f[0], uid: uid, gid: f[3], home: f[5]}, true
	}
	return account{}, false
}
