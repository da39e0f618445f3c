package gpuscrub_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// withUnits installs the simulated host's systemctl with the given units
// active.
func withUnits(t *testing.T, h *tasktest.Host, active ...string) {
	t.Helper()
	host := fakehost.Host{Root: string(h.Root)}
	h.Exec.Set("systemctl", func(args []string) ([]byte, error) {
		var out, errb bytes.Buffer
		if code := host.Run("systemctl", args, &out, &errb); code != 0 {
			return out.Bytes(), fakeexec.Exit("systemctl", code, errb.String())
		}
		return out.Bytes(), nil
	})
	for _, u := range active {
		var errb bytes.Buffer
		if host.Run("systemctl", []string{"restart", u}, &bytes.Buffer{}, &errb) != 0 {
			t.Fatal(errb.String())
		}
	}
}

// DCGM's host engine and the persistence daemon hold the driver: the
// fake refuses the reset while either runs, as the driver does. The scrub
// stops the active client units before the reset and starts them again
// after; a unit that was not running is left alone. Before, the reset
// failed "In use by another client".
func TestScrubStopsTheDriversClientsAndStartsThemAgain(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	withUnits(t, h, "nvidia-dcgm", "nvidia-persistenced")
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	stopped, started := check(ev, "driver_clients_stopped"), check(ev, "driver_clients_started")
	if stopped == nil || !slices.Equal(stopped.Items, []string{"nvidia-dcgm", "nvidia-persistenced"}) || started == nil || !started.Passed {
		t.Errorf("clients: stopped %+v, started %+v", stopped, started)
	}
	host := fakehost.Host{Root: string(h.Root)}
	for _, u := range []string{"nvidia-dcgm", "nvidia-persistenced"} {
		if _, active := host.Unit(u); active != "active" {
			t.Errorf("%s is %s after the scrub, want active again", u, active)
		}
	}
	var out bytes.Buffer
	if host.Run("systemctl", []string{"is-active", "dcgm-exporter"}, &out, &bytes.Buffer{}) == 0 {
		t.Errorf("dcgm-exporter, never installed, is %s", out.String())
	}
}

// A unit that will not stop fails the check with its name; the reset is
// then refused by the driver and the GPUs fail.
func TestScrubNamesAClientThatWillNotStop(t *testing.T) {
	h, s := nvidiaHost(t, 1)
	withUnits(t, h, "nvidia-dcgm")
	inner := fakehost.Host{Root: string(h.Root)}
	h.Exec.Set("systemctl", func(args []string) ([]byte, error) {
		if args[0] == "stop" {
			return nil, fakeexec.Exit("systemctl", 1, "Job for nvidia-dcgm.service canceled.")
		}
		var out bytes.Buffer
		if code := inner.Run("systemctl", args, &out, &bytes.Buffer{}); code != 0 {
			return out.Bytes(), fakeexec.Exit("systemctl", code, "")
		}
		return out.Bytes(), nil
	})
	ev, _ := scrub(t, h, s)
	if c := check(ev, "driver_clients_stopped"); c == nil || c.Passed || !strings.Contains(c.Reason, "nvidia-dcgm") {
		t.Errorf("clients check %+v", c)
	}
	if ev.Passed || !strings.Contains(ev.GPUs[0].Reason, "In use by another client") {
		t.Errorf("GPU 0 %+v; want the reset refused", ev.GPUs[0])
	}
}

// What a tenant with root changed goes back to the GPU's defaults: the
// power limit (450 W -> the 700 W default), a pending ECC mode change
// (undone), accounted processes (cleared) and applications clocks
// (reset), each recorded as a step with the values; the reading after
// shows them restored. Before, the GPU kept the tenant's power limit and
// the ECC change went to the next tenancy.
func TestScrubRestoresEverySetting(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	g := &s.NVIDIA.GPUs[1]
	g.PowerLimitW, g.ECCPending, g.Accounting, g.Accounted, g.AppClocks = 450, "Disabled", "Enabled", 3, true
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	got := ev.GPUs[1]
	if b := got.Before; b.PowerLimitW == nil || *b.PowerLimitW != 450 || b.ECCModePending != "Disabled" || b.AccountingMode != "Enabled" {
		t.Errorf("before: %+v; want the tenant's settings recorded", b)
	}
	for name, want := range map[string]string{"power_limit_default": "450.00 W -> 700.00 W",
		"ecc_mode_pending_undone": "pending Disabled set back to the current Enabled", "clear_accounted_apps": "", "reset_applications_clocks": ""} {
		if c := step(got, name); c == nil || !c.Passed || c.Reason != want {
			t.Errorf("step %s = %+v, want passed with %q", name, c, want)
		}
	}
	if a := got.After; a.PowerLimitW == nil || *a.PowerLimitW != 700 || a.ECCModePending != "Enabled" {
		t.Errorf("after: %+v; want the default power limit and no ECC change pending", a)
	}
	if step(ev.GPUs[0], "power_limit_default") != nil || step(ev.GPUs[0], "ecc_mode_pending_undone") != nil {
		t.Errorf("GPU 0, left at its defaults, got restore steps: %+v", ev.GPUs[0].Steps)
	}
	st, err := fakesmi.Load(string(h.Root))
	if err != nil {
		t.Fatal(err)
	}
	if g := st.NVIDIA.GPUs[1]; g.Accounted != 0 || g.AppClocks {
		t.Errorf("fake state after: %+v; want accounted apps cleared and applications clocks reset", g)
	}
}
