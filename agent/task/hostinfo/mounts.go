package hostinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
)

// MountinfoPath is the agent's own mount table.
const MountinfoPath = "/proc/self/mountinfo"

// Mount is one mountinfo line (proc_pid_mountinfo(5)).
type Mount struct {
	ID, Parent int
	MajorMinor string // the device, "259:2"
	Root       string
	Point      string // host path, unescaped
	Options    string
	FSType     string
	Source     string
}

// ReadMounts parses /proc/self/mountinfo under root.
func ReadMounts(root hostroot.Root) ([]Mount, error) {
	b, err := os.ReadFile(root.Path(MountinfoPath))
	if err != nil {
		return nil, fmt.Errorf("hostinfo: %w", err)
	}
	return ParseMountinfo(string(b))
}

// ParseMountinfo parses mountinfo text: ID, parent, major:minor, root,
// mount point, options, optional fields ended by "-", fstype, source,
// super options. Paths unescape \040, \011, \012 and \134.
func ParseMountinfo(s string) ([]Mount, error) {
	var out []Mount
	for n, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if len(f) < 10 || sep < 0 || len(f) < sep+3 {
			return nil, fmt.Errorf("hostinfo: mountinfo line %d is malformed", n+1)
		}
		id, err1 := strconv.Atoi(f[0])
		parent, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("hostinfo: mountinfo line %d has a bad mount id", n+1)
		}
		out = append(out, Mount{ID: id, Parent: parent, MajorMinor: f[2], Root: unescape(f[3]), Point: unescape(f[4]),
			Options: f[5], FSType: f[sep+1], Source: unescape(f[sep+2])})
	}
	return out, nil
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Under reports whether p is dir or inside it (both clean absolute paths).
func Under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
