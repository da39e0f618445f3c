//go:build e2e

package system

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// bins are the binaries under test, built once per test binary. dir also
// holds the simulated hosts' tools, fakehost and fakegpu (maassim's
// --fake-tools-dir).
var bins struct {
	dir                    string
	daemon, agent, maassim string
	err                    error // why they could not be built
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "e2e-bins-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bins.dir, bins.err = dir, build(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles the three binaries and the fake host tools from the
// module root into dir.
func build(dir string) error {
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"./daemon/cmd/maas-sidecar", "./agent/cmd/gpuaas-node-agent", "./sim/cmd/maassim", "./sim/cmd/fakehost", "./sim/cmd/fakegpu")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	// Neutral names: a developer's `pkill maas-sidecar` on the same machine
	// must not reach the processes under test.
	for _, b := range []struct {
		dst      *string
		from, to string
	}{{&bins.daemon, "maas-sidecar", "e2e-daemon"}, {&bins.agent, "gpuaas-node-agent", "e2e-agent"},
		{&bins.maassim, "maassim", "e2e-maassim"}} {
		*b.dst = filepath.Join(dir, b.to)
		if err := os.Rename(filepath.Join(dir, b.from), *b.dst); err != nil {
			return err
		}
	}
	return nil
}

// requireBinaries fails the test when the build failed or Vault is missing.
func requireBinaries(t testing.TB) string {
	t.Helper()
	if bins.err != nil {
		t.Fatalf("building the binaries under test: %v", bins.err)
	}
	vault := os.Getenv("MAAS_SIDECAR_VAULTDEV")
	if vault == "" {
		t.Fatal("MAAS_SIDECAR_VAULTDEV is not set: run the e2e tests with `make e2e`, which builds bin/vaultdev")
	}
	if _, err := os.Stat(vault); err != nil {
		t.Fatalf("MAAS_SIDECAR_VAULTDEV: %v (run `make e2e`)", err)
	}
	return vault
}
