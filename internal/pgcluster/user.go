package pgcluster

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// owner is who runs the server: the caller, or "nobody" when the caller
// is root.
type owner struct {
	uid, gid int
	drop     bool
}

func serverOwner() (owner, error) {
	if os.Geteuid() != 0 {
		return owner{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return owner{}, fmt.Errorf("running as root, the server needs the user nobody: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return owner{uid: uid, gid: gid, drop: true}, nil
}

// command runs name as the owner in dir (a directory the owner may enter:
// PostgreSQL's programs warn when they cannot).
func (o owner) command(dir, name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = dir
	if o.drop {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(o.uid), Gid: uint32(o.gid)}}
	}
	c.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
	return c
}

// chown gives path to the owner.
func (o owner) chown(path string) error {
	if !o.drop {
		return nil
	}
	return os.Chown(path, o.uid, o.gid)
}
