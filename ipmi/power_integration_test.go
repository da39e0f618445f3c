//go:build integration

package ipmi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/ipmi"
)

func newClient(t *testing.T, cfg ipmi.Config, o ipmi.Options) *ipmi.Client {
	t.Helper()
	mustLookPath(t, "ipmitool", "ipmitool")
	c, err := ipmi.New(cfg, o)
	if err != nil {
		t.Fatalf("ipmi.New: %v", err)
	}
	return c
}

func TestPowerAgainstIPMISim(t *testing.T) {
	sim := startSim(t)
	bmc := newClient(t, ipmi.Config{Timeout: 5 * time.Second}, ipmi.Options{}).BMC(sim.target)
	ctx := context.Background()

	wantState(t, bmc, ipmi.PowerOff)
	steps := []struct {
		action    ipmi.PowerAction
		want      ipmi.PowerState
		wantPower string // the simulator's own record
	}{
		{ipmi.ActionOn, ipmi.PowerOn, "1"},
		{ipmi.ActionOff, ipmi.PowerOff, "0"},
		{ipmi.ActionCycle, ipmi.PowerOn, "1"}, // from off: powers on
		{ipmi.ActionCycle, ipmi.PowerOn, "1"}, // from on: off, then on after the sim's delay
	}
	for _, s := range steps {
		if err := bmc.SetPower(ctx, s.action); err != nil {
			t.Fatalf("SetPower(%s): %v", s.action, err)
		}
		eventually(t, 3*time.Second, func() bool { return sim.file(t, "power") == s.wantPower })
		wantState(t, bmc, s.want)
	}
	log := sim.file(t, "log")
	if !strings.HasSuffix(log, "set power=0\nset power=1") {
		t.Errorf("the last cycle did not go off then on; chassis log:\n%s", log)
	}
}

func TestPXEBootAgainstIPMISim(t *testing.T) {
	sim := startSim(t)
	argsLog := filepath.Join(t.TempDir(), "args")
	cfg := ipmi.Config{Timeout: 5 * time.Second, IPMIToolPath: recordingIPMITool(t, sim.ipmitool, argsLog)}
	bmc := newClient(t, cfg, ipmi.Options{}).BMC(sim.target)
	for _, persistent := range []bool{false, true} {
		if err := bmc.SetBootDevice(context.Background(), ipmi.BootDisk, false); err != nil {
			t.Fatalf("SetBootDevice(disk): %v", err)
		}
		if err := bmc.SetBootDevice(context.Background(), ipmi.BootPXE, persistent); err != nil {
			t.Fatalf("SetBootDevice(pxe, persistent=%v): %v", persistent, err)
		}
		if got := sim.file(t, "boot"); got != "pxe" {
			t.Errorf("persistent=%v: simulator boot device = %q, want pxe", persistent, got)
		}
	}
	var bootCalls []string
	for _, l := range strings.Split(strings.TrimSpace(readFile(t, argsLog)), "\n") {
		if i := strings.Index(l, "chassis bootdev"); i >= 0 {
			bootCalls = append(bootCalls, l[i:])
		}
	}
	want := []string{
		"chassis bootdev disk", "chassis bootdev pxe",
		"chassis bootdev disk", "chassis bootdev pxe options=persistent",
	}
	if diff := cmp.Diff(want, bootCalls); diff != "" {
		t.Errorf("ipmitool boot calls (-want +got):\n%s", diff)
	}
	if args := readFile(t, argsLog); strings.Contains(args, sim.target.Pass) || !strings.Contains(args, "-C 3") {
		t.Errorf("ipmitool arguments hold the password or lack cipher suite 3:\n%s", args)
	}
}

// recordingIPMITool writes a wrapper that logs its arguments, then runs the
// real ipmitool. bmclib passes only IPMITOOL_PASSWORD in the environment,
// so the paths are written into the script.
func recordingIPMITool(t *testing.T, real, argsLog string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ipmitool")
	script := "#!/bin/sh\necho \"$*\" >> '" + argsLog + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantState(t *testing.T, bmc ipmi.BMC, want ipmi.PowerState) {
	t.Helper()
	got, err := bmc.PowerState(context.Background())
	if err != nil || got != want {
		t.Fatalf("PowerState = %q, %v; want %q", got, err, want)
	}
}

func eventually(t *testing.T, limit time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", limit)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
