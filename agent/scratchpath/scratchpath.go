// Package scratchpath decides which host directories node.storage_cleanup
// may empty as scratch: only directories at or under a root the host's
// agent config allows (cleanup.scratch_roots), and never a system or home
// directory nor anything under one, whatever the config or a signed task
// says. /tmp and /var/tmp are emptied by their own rule, not through here.
package scratchpath

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// DefaultRoots is cleanup.scratch_roots when the config names none.
var DefaultRoots = []string{"/scratch"}

// denied are never scratch, nor anything above them.
var denied = []string{"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var",
	"/var/lib", "/var/log", "/var/run", "/var/spool", "/var/mail", "/var/cache", "/var/backups", "/tmp", "/var/tmp"}

// deniedTrees hold the system, the agent's own state and people's homes:
// nothing under them is ever scratch.
var deniedTrees = []string{"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/proc", "/root", "/run", "/sbin", "/snap", "/sys", "/usr", "/var/lib", "/var/log", "/var/run",
	"/var/spool", "/var/mail", "/var/cache", "/var/backups"}

// Deny refuses p when it is not a clean absolute path, or is a system or
// home directory, above one, or under one.
func Deny(p string) error {
	switch {
	case !path.IsAbs(p) || path.Clean(p) != p:
		return fmt.Errorf("%q is not a clean absolute path", p)
	case slices.Contains(denied, p):
		return fmt.Errorf("%s is a system directory", p)
	}
	for _, t := range deniedTrees {
		if strings.HasPrefix(p, t+"/") {
			return fmt.Errorf("%s is under %s, never scratch", p, t)
		}
	}
	return nil
}

// Check refuses p unless Deny passes it and it is one of roots or lies
// under one. roots are the host's cleanup.scratch_roots.
func Check(p string, roots []string) error {
	if err := Deny(p); err != nil {
		return err
	}
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			if err := Deny(r); err != nil {
				return fmt.Errorf("scratch root %s: %w", r, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%s is not under a scratch root of this host (cleanup.scratch_roots: %s)", p, strings.Join(roots, ", "))
}
