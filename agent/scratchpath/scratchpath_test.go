package scratchpath_test

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/scratchpath"
)

func TestCheck(t *testing.T) {
	roots := []string{"/scratch", "/mnt/nvme"}
	cases := []struct {
		path string
		ok   bool
	}{
		{"/scratch", true},
		{"/scratch/job-1", true},
		{"/mnt/nvme/tenant", true},
		{"/scratchy", false}, // a prefix, not a parent
		{"/mnt", false},
		{"/mnt/other", false}, // not a root
		{"/root/.ssh", false},
		{"/home/ubuntu", false},
		{"/var/log/syslog", false},
		{"/run/user/1000", false},
		{"/opt/app", false},
		{"/srv/data", false},
		{"/etc", false},
		{"/", false},
		{"/var/lib/gpuaas-node-agent", false},
		{"/tmp", false}, // emptied by its own rule, never as scratch
		{"/scratch/../root", false},
		{"relative", false},
	}
	for _, c := range cases {
		if err := scratchpath.Check(c.path, roots); (err == nil) != c.ok {
			t.Errorf("Check(%q) = %v, want ok %v", c.path, err, c.ok)
		}
	}
}

// Whatever the host's roots say, system and home trees are refused.
func TestDenyWinsOverRoots(t *testing.T) {
	for _, p := range []string{"/root/.ssh", "/home/ubuntu/.ssh", "/etc/ssh", "/var/log/journal", "/usr/lib"} {
		if err := scratchpath.Check(p, []string{"/root", "/home", "/etc", "/var/log", "/usr", "/"}); err == nil {
			t.Errorf("%s accepted under a root that names a system tree", p)
		}
	}
}
