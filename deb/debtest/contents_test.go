//go:build integration

package debtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// dirs are the directories every package has (dpkg-deb -c lists them).
var dirs = []string{
	"drwxr-xr-x root/root ./lib/", "drwxr-xr-x root/root ./lib/systemd/", "drwxr-xr-x root/root ./lib/systemd/system/",
	"drwxr-xr-x root/root ./usr/", "drwxr-xr-x root/root ./usr/bin/", "drwxr-xr-x root/root ./usr/share/",
	"drwxr-xr-x root/root ./usr/share/doc/", "drwxr-xr-x root/root ./usr/share/lintian/",
	"drwxr-xr-x root/root ./usr/share/lintian/overrides/", "drwxr-xr-x root/root ./usr/share/man/",
	"drwxr-xr-x root/root ./usr/share/man/man1/",
}

var daemonFiles = []string{
	"drwxr-xr-x root/root ./etc/", "drwxr-xr-x root/root ./etc/maas-sidecar/",
	"-rw-r--r-- root/root ./etc/maas-sidecar/config.yaml",
	"drwxr-xr-x root/root ./etc/default/", "-rw-r--r-- root/root ./etc/default/maas-sidecar-notify-forward",
	"-rw-r--r-- root/root ./lib/systemd/system/maas-sidecar-notify-forward.service",
	"-rw-r--r-- root/root ./lib/systemd/system/maas-sidecar.service",
	"-rwxr-xr-x root/root ./usr/bin/maas-sidecar",
	"drwxr-xr-x root/root ./usr/share/bash-completion/", "drwxr-xr-x root/root ./usr/share/bash-completion/completions/",
	"-rw-r--r-- root/root ./usr/share/bash-completion/completions/maas-sidecar",
	"drwxr-xr-x root/root ./usr/share/doc/maas-sidecar/",
	"-rw-r--r-- root/root ./usr/share/doc/maas-sidecar/changelog.Debian.gz",
	"-rw-r--r-- root/root ./usr/share/doc/maas-sidecar/copyright",
	"-rw-r--r-- root/root ./usr/share/lintian/overrides/maas-sidecar",
	"drwxr-xr-x root/root ./usr/share/maas-sidecar/", "drwxr-xr-x root/root ./usr/share/maas-sidecar/prometheus/",
	"-rw-r--r-- root/root ./usr/share/maas-sidecar/prometheus/alerts.yml",
	"-rw-r--r-- root/root ./usr/share/man/man1/maas-sidecar.1.gz",
}

// dashboard is shipped once deb/grafana/maas-sidecar.json exists.
var dashboard = []string{
	"drwxr-xr-x root/root ./usr/share/maas-sidecar/grafana/",
	"-rw-r--r-- root/root ./usr/share/maas-sidecar/grafana/maas-sidecar.json",
}

var agentFiles = []string{
	"-rw-r--r-- root/root ./lib/systemd/system/gpuaas-node-agent.service",
	"-rwxr-xr-x root/root ./usr/bin/gpuaas-node-agent",
	"drwxr-xr-x root/root ./usr/share/doc/gpuaas-node-agent/",
	"-rw-r--r-- root/root ./usr/share/doc/gpuaas-node-agent/changelog.Debian.gz",
	"-rw-r--r-- root/root ./usr/share/doc/gpuaas-node-agent/copyright",
	"-rw-r--r-- root/root ./usr/share/lintian/overrides/gpuaas-node-agent",
	"-rw-r--r-- root/root ./usr/share/man/man1/gpuaas-node-agent.1.gz",
}

// TestContents: every file and directory of each package, with its
// owner and mode, and nothing else; the conffiles; the maintainer scripts.
func TestContents(t *testing.T) {
	p := packages(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	daemon := append(append([]string{}, dirs...), daemonFiles...)
	if _, err := os.Stat(filepath.Join(root, "deb/grafana/maas-sidecar.json")); err == nil {
		daemon = append(daemon, dashboard...)
	}
	agent := append(append([]string{}, dirs...), agentFiles...)
	scripts := []string{"postinst", "postrm", "prerm"}
	tests := []struct {
		deb       string
		files     []string
		conffiles []string
	}{
		{p.Daemon, daemon, []string{"/etc/default/maas-sidecar-notify-forward", "/etc/maas-sidecar/config.yaml"}},
		{p.AgentAMD64, agent, nil},
		{p.AgentARM64, agent, nil},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.deb), func(t *testing.T) {
			if diff := cmp.Diff(sorted(tt.files), sorted(contents(t, tt.deb))); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.conffiles, strings.Fields(control(t, tt.deb, "conffiles")), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("conffiles (-want +got):\n%s", diff)
			}
			for _, s := range scripts {
				if !strings.HasPrefix(control(t, tt.deb, s), "#!/bin/sh\n") {
					t.Errorf("maintainer script %s missing or not /bin/sh", s)
				}
			}
		})
	}
}

// contents lists "mode owner/group path" of each member (dpkg-deb -c).
func contents(t *testing.T, deb string) []string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", "--contents", deb).Output()
	if err != nil {
		t.Fatalf("dpkg-deb --contents %s: %v", deb, err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l) // mode owner size date time path
		if len(f) < 6 {
			t.Fatalf("unexpected dpkg-deb line %q", l)
		}
		got = append(got, f[0]+" "+f[1]+" "+f[5])
	}
	return got
}

// control returns a control member of deb ("" when absent).
func control(t *testing.T, deb, member string) string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", "--info", deb, member).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

func sorted(s []string) []string {
	return slices.Sorted(slices.Values(s))
}
