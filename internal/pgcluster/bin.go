package pgcluster

import (
	"errors"
	"os/exec"
	"path/filepath"
	"sort"
)

// binDirs are where Debian installs the server programs, newest first:
// they are not on PATH there.
func binDirs() []string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	return dirs
}

// tool finds a server program: on PATH, else in Debian's version
// directories.
func tool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, d := range binDirs() {
		p := filepath.Join(d, name)
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New(name + " not found on PATH or in /usr/lib/postgresql/*/bin: install Debian's postgresql package (make test-deps)")
}
