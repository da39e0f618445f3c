//go:build integration

package debtest

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestControl: the fields that decide what installs where. The daemon
// needs adduser for its maintainer scripts and works without ipmitool
// (only PXE discovery needs it), so ipmitool is a Recommends; the static
// binaries need no libc.
func TestControl(t *testing.T) {
	p := packages(t)
	fields := []string{"Package", "Architecture", "Depends", "Recommends", "Section", "Priority"}
	tests := []struct {
		deb  string
		want map[string]string
	}{
		{p.Daemon, map[string]string{"Package": "maas-sidecar", "Architecture": "amd64", "Depends": "adduser",
			"Recommends": "ipmitool", "Section": "admin", "Priority": "optional"}},
		{p.AgentAMD64, map[string]string{"Package": "gpuaas-node-agent", "Architecture": "amd64",
			"Section": "admin", "Priority": "optional"}},
		{p.AgentARM64, map[string]string{"Package": "gpuaas-node-agent", "Architecture": "arm64",
			"Section": "admin", "Priority": "optional"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.deb), func(t *testing.T) {
			got := map[string]string{}
			for _, f := range fields {
				out, err := exec.Command("dpkg-deb", "--field", tt.deb, f).Output()
				if err != nil {
					t.Fatalf("dpkg-deb --field %s: %v", f, err)
				}
				if v := strings.TrimSpace(string(out)); v != "" {
					got[f] = v
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("control fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBinariesAreStaticForTheirArchitecture: what justifies no libc
// dependency and the statically-linked-binary override, and the arm64
// package really carries an arm64 binary.
func TestBinariesAreStaticForTheirArchitecture(t *testing.T) {
	p := packages(t)
	tests := []struct {
		deb, bin string
		machine  elf.Machine
	}{
		{p.Daemon, "usr/bin/maas-sidecar", elf.EM_X86_64},
		{p.AgentAMD64, "usr/bin/gpuaas-node-agent", elf.EM_X86_64},
		{p.AgentARM64, "usr/bin/gpuaas-node-agent", elf.EM_AARCH64},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.deb), func(t *testing.T) {
			dir := t.TempDir()
			if out, err := exec.Command("dpkg-deb", "-x", tt.deb, dir).CombinedOutput(); err != nil {
				t.Fatalf("dpkg-deb -x: %v\n%s", err, out)
			}
			f, err := elf.Open(filepath.Join(dir, tt.bin))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Machine != tt.machine {
				t.Errorf("%s is for %s, want %s", tt.bin, f.Machine, tt.machine)
			}
			for _, prog := range f.Progs {
				if prog.Type == elf.PT_INTERP {
					t.Errorf("%s is dynamically linked (it has an interpreter)", tt.bin)
				}
			}
			if f.Section(".symtab") != nil {
				t.Errorf("%s is not stripped", tt.bin)
			}
		})
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}
