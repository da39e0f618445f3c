package fakehost

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Tools are the commands Main answers, by name.
var Tools = []string{"kill", "userdel", "loginctl", "umount", "systemctl", "nvme", "mkfs.ext4", "mkfs.xfs", "mount"}

// Host is a host root the tools act on.
type Host struct {
	Root string
	// Stuck, when set, reports whether a process survives SIGKILL; nil
	// means a process in state D (uninterruptible sleep) survives.
	Stuck func(pid int) bool
}

// Main runs the tool named by argv0's base name against the host under
// root and returns its exit code.
func Main(root, argv0 string, args []string, stdout, stderr io.Writer) int {
	return Host{Root: root}.Run(filepath.Base(argv0), args, stdout, stderr)
}

// Run runs tool name with args and returns its exit code.
func (h Host) Run(name string, args []string, stdout, stderr io.Writer) int {
	switch name {
	case "kill":
		return h.kill(args, stderr)
	case "userdel":
		return h.userdel(args, stderr)
	case "loginctl":
		return h.loginctl(args, stderr)
	case "umount":
		return h.umount(args, stderr)
	case "systemctl":
		return h.systemctl(args, stdout, stderr)
	case "nvme":
		return h.nvme(args, stdout, stderr)
	case "mkfs.ext4", "mkfs.xfs":
		return h.mkfs(strings.TrimPrefix(name, "mkfs."), args, stderr)
	case "mount":
		return h.mountTool(args, stderr)
	}
	fmt.Fprintf(stderr, "fakehost: run as one of %v, not %s\n", Tools, name)
	return 2
}

// path returns host path p under the root.
func (h Host) path(p string) string { return filepath.Join(h.Root, filepath.Clean("/"+p)) }
