package fakehost

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FSMagic is what mkfs writes at byte 1024 of a device (where ext4's
// superblock lies), followed by the type: "fakehost-fs ext4".
const FSMagic = "fakehost-fs "

// mkfs is mkfs.ext4 -F / mkfs.xfs -f on a simulated device: it writes
// FSMagic and the type at byte 1024.
func (h Host) mkfs(fs string, args []string, stderr io.Writer) int {
	dev := lastArg(args)
	f, err := os.OpenFile(h.path(dev), os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintf(stderr, "mkfs.%s: %s: No such file or directory\n", fs, dev)
		return 1
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(FSMagic+fs), 1024); err != nil {
		fmt.Fprintf(stderr, "mkfs.%s: %v\n", fs, err)
		return 1
	}
	return 0
}

// mountTool is "mount -t FS DEV POINT": it adds the mountinfo line with the
// device's MAJ:MIN from /sys/block, after checking the filesystem is
// there (exit 32, as mount(8) on a wrong fs type).
func (h Host) mountTool(args []string, stderr io.Writer) int {
	var pos []string
	fs := ""
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-t" && i+1 < len(args):
			fs = args[i+1]
			i++
		case !strings.HasPrefix(args[i], "-"):
			pos = append(pos, args[i])
		}
	}
	if len(pos) != 2 || fs == "" {
		fmt.Fprintln(stderr, "mount: bad usage (mount -t FS DEV POINT)")
		return 1
	}
	dev, point := pos[0], pos[1]
	buf := make([]byte, len(FSMagic)+len(fs))
	f, err := os.Open(h.path(dev))
	if err == nil {
		_, err = f.ReadAt(buf, 1024)
		f.Close()
	}
	if err != nil || string(buf) != FSMagic+fs {
		fmt.Fprintf(stderr, "mount: %s: wrong fs type, bad option, bad superblock on %s.\n", point, dev)
		return 32
	}
	mm, _ := os.ReadFile(h.path(filepath.Join("/sys/block", filepath.Base(dev), "dev")))
	lines, _, err := h.mountLines()
	if err != nil {
		fmt.Fprintf(stderr, "mount: %v\n", err)
		return 32
	}
	line := fmt.Sprintf("%d 25 %s / %s rw,relatime shared:90 - %s %s rw", 90+len(lines), strings.TrimSpace(string(mm)), point, fs, dev)
	_ = os.MkdirAll(h.path(point), 0o755)
	if err := h.writeMounts(append(lines, line)); err != nil {
		fmt.Fprintf(stderr, "mount: %v\n", err)
		return 32
	}
	return 0
}

func lastArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[len(args)-1]
}
