package main

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// libDepends returns the Depends on shared libraries of the binary at
// path, as dpkg-shlibdeps derives them from its NEEDED entries and the
// installed libraries' symbols and shlibs files (e.g. "libc6 (>= 2.34)").
// A static binary needs none and gets nil without running anything.
// dpkg-shlibdeps runs in a scratch tree laid out as a package build
// (debian/control, debian/<pkg>/DEBIAN and debian/<pkg>/usr/bin/<name>),
// the layout it expects.
func libDepends(pkg, path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	libs, err := f.ImportedLibraries()
	f.Close()
	if err != nil || len(libs) == 0 {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pkg-shlibdeps-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rel := filepath.Join("debian", pkg, "usr", "bin", filepath.Base(path))
	bin := filepath.Join(dir, rel)
	for _, d := range []string{filepath.Dir(bin), filepath.Join(dir, "debian", pkg, "DEBIAN")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		return nil, err
	}
	control := fmt.Sprintf("Source: %s\n\nPackage: %s\nArchitecture: any\n", pkg, pkg)
	if err := os.WriteFile(filepath.Join(dir, "debian", "control"), []byte(control), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("dpkg-shlibdeps", "-O", "-e"+rel)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dpkg-shlibdeps %s (libraries %s): %w\n%s", path, strings.Join(libs, ", "), err, stderr.Bytes())
	}
	if stderr.Len() > 0 { // warnings, e.g. a library no package owns
		fmt.Fprintf(os.Stderr, "pkg: dpkg-shlibdeps %s: %s", path, stderr.Bytes())
	}
	return parseSubstvar(stdout.String(), "shlibs:Depends")
}

// parseSubstvar reads "name=a, b (>= 1)" from dpkg-shlibdeps -O output.
func parseSubstvar(out, name string) ([]string, error) {
	for _, line := range strings.Split(out, "\n") {
		v, ok := strings.CutPrefix(line, name+"=")
		if !ok {
			continue
		}
		var deps []string
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				deps = append(deps, d)
			}
		}
		return deps, nil
	}
	return nil, fmt.Errorf("dpkg-shlibdeps printed no %s: %q", name, out)
}
