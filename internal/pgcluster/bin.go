package pgcluster

import (
	"errors"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
)

// binDirs are where Debian installs the server programs, newest first:
// they are not on PATH there.
func binDirs() []string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	newestFirst(dirs)
	return dirs
}

func newestFirst(dirs []string) {
	sort.SliceStable(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
}

// version is the major version of a /usr/lib/postgresql/<v>/bin path
// (9.6 is 9.6, 15 is 15), 0 when it is not a number.
func version(dir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
	return v
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
