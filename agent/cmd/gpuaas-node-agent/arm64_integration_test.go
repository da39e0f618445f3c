//go:build integration

package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestARM64AgentRunsUnderQEMU cross-builds the agent for linux/arm64 (no
// cgo: the package is built the same way), checks that the binary is an
// AArch64 ELF, and runs `--version` under qemu-user: the Grace-class hosts
// run this build.
func TestARM64AgentRunsUnderQEMU(t *testing.T) {
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		t.Fatal("qemu-aarch64-static is missing: install the Debian package qemu-user-static (hack/install-test-deps.sh)")
	}
	const version = "9.8.7-arm64test"
	bin := filepath.Join(t.TempDir(), "gpuaas-node-agent")
	build := exec.Command("go", "build", "-trimpath",
		"-ldflags", "-X github.com/gpuaas/maas-sidecar/internal/buildinfo.Version="+version, "-o", bin, ".")
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cross-building for arm64: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	machine, class := f.Machine, f.Class
	f.Close()
	if machine != elf.EM_AARCH64 || class != elf.ELFCLASS64 {
		t.Fatalf("binary is %v %v, want EM_AARCH64 ELFCLASS64", machine, class)
	}
	cmd := exec.Command(qemu, bin, "--version")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("qemu-aarch64-static %s --version: %v\n%s", bin, err, stderr.String())
	}
	if got := string(out); got != version+"\n" {
		t.Errorf("--version printed %q, want %q", got, version+"\n")
	}
}
