//go:build integration

package debtest

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBinaries: the agent and the daemon are static (what justifies no
// libc dependency and their statically-linked-binary overrides) and the
// arm64 package really carries an arm64 binary; the daemon is also a
// hardened PIE (lintian's hardening-no-pie, hardening-no-relro and
// hardening-no-bindnow) and says it has the dqlite store.
func TestBinaries(t *testing.T) {
	p := packages(t)
	tests := []struct {
		deb, bin string
		machine  elf.Machine
		hardened bool   // a static PIE with RELRO and BIND_NOW
		version  string // the argument that prints the version
	}{
		{p.Daemon, "usr/bin/maas-sidecar", elf.EM_X86_64, true, "version"},
		{p.AgentAMD64, "usr/bin/gpuaas-node-agent", elf.EM_X86_64, false, "--version"},
		{p.AgentARM64, "usr/bin/gpuaas-node-agent", elf.EM_AARCH64, false, ""},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.deb), func(t *testing.T) {
			bin := filepath.Join(extract(t, tt.deb), tt.bin)
			f, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Machine != tt.machine {
				t.Errorf("%s is for %s, want %s", tt.bin, f.Machine, tt.machine)
			}
			if f.Section(".symtab") != nil {
				t.Errorf("%s is not stripped", tt.bin)
			}
			assertStatic(t, f)
			if tt.hardened {
				assertHardened(t, f)
			}
			if tt.version == "" {
				return
			}
			out := assertVersion(t, tt.deb, bin, tt.version)
			if tt.bin == "usr/bin/maas-sidecar" && !strings.Contains(out, "\nstores: bolt, dqlite\n") {
				t.Errorf("maas-sidecar version printed %q, want the line \"stores: bolt, dqlite\"", out)
			}
		})
	}
}

// assertStatic: no interpreter and no NEEDED library.
func assertStatic(t *testing.T, f *elf.File) {
	t.Helper()
	if slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP }) {
		t.Error("dynamically linked (it has an interpreter)")
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("needs %v, want a static binary", libs)
	}
}

// assertHardened: a PIE, a RELRO segment and immediate binding.
func assertHardened(t *testing.T, f *elf.File) {
	t.Helper()
	flags1, _ := f.DynValue(elf.DT_FLAGS_1)
	if f.Type != elf.ET_DYN || len(flags1) == 0 || flags1[0]&uint64(elf.DF_1_PIE) == 0 {
		t.Errorf("not a PIE (type %s, DT_FLAGS_1 %v)", f.Type, flags1)
	}
	if !slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_GNU_RELRO }) {
		t.Error("no RELRO segment")
	}
	if flags, _ := f.DynValue(elf.DT_FLAGS); len(flags) == 0 || flags[0]&uint64(elf.DF_BIND_NOW) == 0 {
		t.Errorf("not bound now (DT_FLAGS %v)", flags)
	}
}

// extract unpacks deb into a temporary directory and returns it.
func extract(t *testing.T, deb string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", deb, dir).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v\n%s", err, out)
	}
	return dir
}

// assertVersion: the binary reports the package's version (the build
// stamps it; a moved variable would leave "dev"); it returns the output.
func assertVersion(t *testing.T, deb, bin, arg string) string {
	t.Helper()
	want := field(t, deb, "Version")
	got, err := exec.Command(bin, arg).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", bin, arg, err)
	}
	if !strings.Contains(string(got), want) {
		t.Errorf("%s %s printed %q, want the package version %q", filepath.Base(bin), arg, got, want)
	}
	return string(got)
}
