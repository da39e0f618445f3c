package main

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/systemd/sdbus"
	"github.com/gpuaas/maas-sidecar/agent/systemd/sdexec"
)

// Only the real root reaches the machine's systemd over D-Bus; a
// simulated host's units go through its own systemctl.
func TestSystemdFor(t *testing.T) {
	for _, tt := range []struct {
		root string
		dbus bool
	}{{"/", true}, {"", true}, {"//", true}, {"/tmp/hosts/gpu-001", false}, {"hosts/gpu-001", false}} {
		t.Run(tt.root, func(t *testing.T) {
			sd := systemdFor(hostroot.Root(tt.root), hostexec.Runner{Root: hostroot.Root(tt.root)})
			_, isDBus := sd.(sdbus.Manager)
			_, isExec := sd.(sdexec.Manager)
			if isDBus != tt.dbus || isExec == tt.dbus {
				t.Errorf("root %q: got %T, want D-Bus %v", tt.root, sd, tt.dbus)
			}
		})
	}
}
