package fakehost

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// unitDir holds the fake systemctl's state: one file per unit that was
// enabled, disabled, started or stopped, holding "enabled active",
// "disabled inactive" and so on.
const unitDir = fakesmi.UnitsDir

// systemctl is systemctl's "enable|disable UNIT...", "start|restart|stop
// UNIT", "is-active [--quiet] UNIT", "daemon-reload" and "reboot"
// (reboot.go); the state is
// recorded under unitDir (nothing runs). Anything else exits 1.
func (h Host) systemctl(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "daemon-reload" {
		return 0
	}
	if len(args) == 1 && args[0] == "reboot" {
		return h.reboot(stderr)
	}
	if len(args) > 1 && args[0] == "is-active" {
		return h.isActive(args[1:], stdout)
	}
	if len(args) < 2 {
		fmt.Fprintln(stderr, "systemctl: bad usage")
		return 1
	}
	for _, unit := range args[1:] {
		enabled, active := h.unit(unit)
		switch args[0] {
		case "enable", "disable":
			enabled = args[0] + "d"
		case "start", "restart":
			active = "active"
		case "stop":
			active = "inactive"
		default:
			fmt.Fprintf(stderr, "systemctl: unknown command %s\n", args[0])
			return 1
		}
		if err := h.setUnit(unit, enabled, active); err != nil {
			fmt.Fprintf(stderr, "systemctl: %v\n", err)
			return 1
		}
	}
	return 0
}

// isActive is systemctl is-active: "active" and exit 0 for a unit whose
// recorded state is active, "inactive" and exit 3 otherwise; a unit with
// no record (not installed here) is inactive. --quiet prints nothing.
func (h Host) isActive(args []string, stdout io.Writer) int {
	quiet, code := false, 0
	for _, a := range args {
		if a == "--quiet" || a == "-q" {
			quiet = true
			continue
		}
		state := "inactive"
		if _, err := os.Stat(h.path(filepath.Join(unitDir, filepath.Base(a)))); err == nil {
			if _, active := h.unit(a); active == "active" {
				state = "active"
			}
		}
		if state != "active" {
			code = 3
		}
		if !quiet {
			fmt.Fprintln(stdout, state)
		}
	}
	return code
}

// Unit reports a unit's recorded state: "enabled"/"disabled" (default
// enabled) and "active"/"inactive" (default active).
func (h Host) Unit(unit string) (enabled, active string) { return h.unit(unit) }

func (h Host) unit(unit string) (enabled, active string) {
	enabled, active = "enabled", "active"
	b, err := os.ReadFile(h.path(filepath.Join(unitDir, filepath.Base(unit))))
	if err == nil {
		_, _ = fmt.Sscan(string(b), &enabled, &active)
	}
	return enabled, active
}

func (h Host) setUnit(unit, enabled, active string) error {
	p := h.path(filepath.Join(unitDir, filepath.Base(unit)))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(enabled+" "+active+"\n"), 0o644)
}
