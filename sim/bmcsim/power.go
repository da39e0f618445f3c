package bmcsim

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// session is the BMC as seen with one pair of credentials.
type session struct {
	b          *BMC
	user, pass string
}

var _ ipmi.BMC = (*session)(nil)

// enter checks the network and the credentials and locks the BMC.
func (s *session) enter(ctx context.Context, op string) (unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	b := s.b
	b.mu.Lock()
	b.settle()
	switch {
	case !b.reachable:
		b.mu.Unlock()
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "simulated BMC did not answer")
	case !equal(s.user, b.cfg.User) || !equal(s.pass, b.cfg.Pass):
		b.mu.Unlock()
		return nil, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "simulated BMC refused the credentials")
	}
	return b.mu.Unlock, nil
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// PowerState returns on or off.
func (s *session) PowerState(ctx context.Context) (ipmi.PowerState, error) {
	unlock, err := s.enter(ctx, "bmcsim.PowerState")
	if err != nil {
		return ipmi.PowerUnknown, err
	}
	defer unlock()
	return s.b.state.Power, nil
}

// SetPower powers on or off at once; a cycle powers off at once and on
// after the cycle delay, or on at once from off.
func (s *session) SetPower(ctx context.Context, a ipmi.PowerAction) error {
	const op = "bmcsim.SetPower"
	if a != ipmi.ActionOn && a != ipmi.ActionOff && a != ipmi.ActionCycle {
		return lifecycle.Invalid(op, "action", "unknown power action %q", a)
	}
	unlock, err := s.enter(ctx, op)
	if err != nil {
		return err
	}
	defer unlock()
	b := s.b
	b.stopCycle()
	switch {
	case a == ipmi.ActionOff:
		b.state.Power = ipmi.PowerOff
	case a == ipmi.ActionOn || b.state.Power == ipmi.PowerOff:
		b.powerOn()
	default:
		b.state.Power = ipmi.PowerOff
		b.cycleOn = b.cfg.Clock.Now().Add(b.cfg.CycleDelay)
	}
	return nil
}

// SetBootDevice selects the device for the next boot, or every boot.
func (s *session) SetBootDevice(ctx context.Context, dev ipmi.BootDevice, persistent bool) error {
	const op = "bmcsim.SetBootDevice"
	if dev != ipmi.BootPXE && dev != ipmi.BootDisk {
		return lifecycle.Invalid(op, "device", "unknown boot device %q", dev)
	}
	unlock, err := s.enter(ctx, op)
	if err != nil {
		return err
	}
	defer unlock()
	s.b.state.Boot, s.b.state.Persistent = dev, persistent
	return nil
}

// powerOn boots the machine if it was off. A one-time boot device applies
// to this boot only. The caller holds b.mu.
func (b *BMC) powerOn() {
	if b.state.Power == ipmi.PowerOn {
		return
	}
	b.state.Power = ipmi.PowerOn
	b.state.Boots++
	b.state.LastBoot = b.state.Boot
	if !b.state.Persistent {
		b.state.Boot = ipmi.BootDisk
	}
}

// settle finishes a running cycle whose power-on is due. Every look at
// the machine calls it first. The caller holds b.mu.
func (b *BMC) settle() {
	if !b.cycleOn.IsZero() && !b.cfg.Clock.Now().Before(b.cycleOn) {
		b.cycleOn = time.Time{}
		b.powerOn()
	}
}

// stopCycle cancels the power-on of a running cycle: a later power change
// supersedes it. The caller holds b.mu.
func (b *BMC) stopCycle() { b.cycleOn = time.Time{} }
