package bmcsim

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

func newSim() (*BMC, *clockwork.FakeClock, ipmi.BMC) {
	clock := clockwork.NewFakeClock()
	b := New(Config{User: "admin", Pass: "sim-secret", CycleDelay: time.Second, Clock: clock})
	return b, clock, b.Session("admin", "sim-secret")
}

func TestPowerSequence(t *testing.T) {
	b, clock, s := newSim()
	ctx := context.Background()
	steps := []struct {
		action ipmi.PowerAction
		wait   time.Duration
		want   ipmi.PowerState
	}{
		{ipmi.ActionOn, 0, ipmi.PowerOn},
		{ipmi.ActionOn, 0, ipmi.PowerOn}, // idempotent: no second boot
		{ipmi.ActionCycle, 0, ipmi.PowerOff},
		{"", 999 * time.Millisecond, ipmi.PowerOff},
		{"", time.Millisecond, ipmi.PowerOn}, // the cycle's delay has passed
		{ipmi.ActionOff, 0, ipmi.PowerOff},
		{ipmi.ActionCycle, 0, ipmi.PowerOn}, // from off: on at once
	}
	for i, st := range steps {
		if st.action != "" {
			if err := s.SetPower(ctx, st.action); err != nil {
				t.Fatalf("step %d: SetPower(%s): %v", i, st.action, err)
			}
		}
		clock.Advance(st.wait)
		if got, err := s.PowerState(ctx); err != nil || got != st.want {
			t.Fatalf("step %d: PowerState = %q, %v; want %q", i, got, err, st.want)
		}
	}
	if got := b.Snapshot().Boots; got != 3 {
		t.Errorf("boots = %d, want 3", got)
	}
}

func TestOffDuringCycleWins(t *testing.T) {
	_, clock, s := newSim()
	ctx := context.Background()
	_ = s.SetPower(ctx, ipmi.ActionOn)
	_ = s.SetPower(ctx, ipmi.ActionCycle)
	_ = s.SetPower(ctx, ipmi.ActionOff)
	clock.Advance(time.Hour)
	if got, _ := s.PowerState(ctx); got != ipmi.PowerOff {
		t.Fatalf("PowerState = %q; an off during a cycle must not be undone", got)
	}
}

func TestBootDeviceOnceAndPersistent(t *testing.T) {
	b, _, s := newSim()
	ctx := context.Background()
	boot := func() { _ = s.SetPower(ctx, ipmi.ActionOff); _ = s.SetPower(ctx, ipmi.ActionOn) }

	_ = s.SetBootDevice(ctx, ipmi.BootPXE, false)
	boot()
	once := b.Snapshot()
	boot()
	after := b.Snapshot()
	_ = s.SetBootDevice(ctx, ipmi.BootPXE, true)
	boot()
	boot()
	persistent := b.Snapshot()

	got := []ipmi.BootDevice{once.LastBoot, after.LastBoot, persistent.LastBoot, persistent.Boot}
	want := []ipmi.BootDevice{ipmi.BootPXE, ipmi.BootDisk, ipmi.BootPXE, ipmi.BootPXE}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("boot devices (-want +got):\n%s", diff)
	}
}

func TestCredentialsAndReachability(t *testing.T) {
	b, _, good := newSim()
	ctx := context.Background()
	bad := b.Session("admin", "wrong")
	tests := []struct {
		name  string
		setup func()
		s     ipmi.BMC
		want  lifecycle.Code
	}{
		{"right password", func() {}, good, ""},
		{"wrong password", func() {}, bad, lifecycle.CodeUnauthorized},
		{"rotated away", func() { b.SetCredentials("admin", "rotated") }, good, lifecycle.CodeUnauthorized},
		{"rotated to", func() {}, b.Session("admin", "rotated"), ""},
		{"unreachable", func() { b.SetReachable(false) }, b.Session("admin", "rotated"), lifecycle.CodeUnavailable},
	}
	for _, tt := range tests {
		tt.setup()
		err := tt.s.SetPower(ctx, ipmi.ActionOn)
		if got := lifecycle.ErrorCode(err); got != tt.want {
			t.Errorf("%s: code %q (%v), want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestFleet(t *testing.T) {
	var f Fleet
	b, _, _ := newSim()
	at := ipmi.Target{Host: "10.0.0.9", User: "admin", Pass: "sim-secret"}
	f.Add(at, b)
	if err := f.BMC(at).SetPower(context.Background(), ipmi.ActionOn); err != nil {
		t.Fatalf("known BMC: %v", err)
	}
	if f.Get(ipmi.Target{Host: "10.0.0.9", Port: 623}) != b {
		t.Error("port 623 is the default port")
	}
	_, err := f.BMC(ipmi.Target{Host: "10.0.0.10"}).PowerState(context.Background())
	if !lifecycle.IsRetryable(err) {
		t.Errorf("unknown BMC: %v, want unavailable", err)
	}
}
