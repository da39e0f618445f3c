package maassim

import (
	"context"
	"errors"
	"sync"
	"time"
)

// BMC is what the simulator needs from a machine's baseboard management
// controller. The ipmi package's simulated BMC satisfies it through a small
// adapter; MemBMC is the in-package default.
type BMC interface {
	PowerState(ctx context.Context) (on bool, err error)
	SetPower(ctx context.Context, on bool) error
	BootDevice(ctx context.Context) (string, error)
	SetBootDevice(ctx context.Context, device string) error
}

// Boot devices understood by the simulator.
const (
	BootPXE  = "pxe"
	BootDisk = "disk"
)

// ErrBMCDead is returned by a MemBMC marked dead.
var ErrBMCDead = errors.New("BMC did not answer")

// MemBMC is an in-memory BMC. SetDelay makes every call slow (wall time,
// bounded by the caller's context), SetDead makes it fail and SetStuckOn
// makes it accept power-offs that never take.
type MemBMC struct {
	mu      sync.Mutex
	on      bool
	boot    string
	delay   time.Duration
	dead    bool
	stuckOn bool
}

// NewMemBMC returns a powered-off BMC that boots from disk.
func NewMemBMC() *MemBMC { return &MemBMC{boot: BootDisk} }

// SetDelay makes each call take d.
func (b *MemBMC) SetDelay(d time.Duration) { b.mu.Lock(); b.delay = d; b.mu.Unlock() }

// SetDead makes each call fail with ErrBMCDead.
func (b *MemBMC) SetDead(dead bool) { b.mu.Lock(); b.dead = dead; b.mu.Unlock() }

// SetStuckOn makes a power-off answer success while the host stays on (a
// BMC whose chassis command is accepted and ignored): its power state
// never reads off.
func (b *MemBMC) SetStuckOn(stuck bool) { b.mu.Lock(); b.stuckOn = stuck; b.mu.Unlock() }

func (b *MemBMC) wait(ctx context.Context) error {
	b.mu.Lock()
	d, dead := b.delay, b.dead
	b.mu.Unlock()
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	if dead {
		return ErrBMCDead
	}
	return nil
}

// PowerState reports whether the host is powered on.
func (b *MemBMC) PowerState(ctx context.Context) (bool, error) {
	if err := b.wait(ctx); err != nil {
		return false, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.on, nil
}

// SetPower powers the host on or off (a stuck-on host stays on).
func (b *MemBMC) SetPower(ctx context.Context, on bool) error {
	if err := b.wait(ctx); err != nil {
		return err
	}
	b.mu.Lock()
	b.on = on || (b.on && b.stuckOn)
	b.mu.Unlock()
	return nil
}

// BootDevice returns the next boot device.
func (b *MemBMC) BootDevice(ctx context.Context) (string, error) {
	if err := b.wait(ctx); err != nil {
		return "", err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.boot, nil
}

// SetBootDevice sets the next boot device (BootPXE or BootDisk).
func (b *MemBMC) SetBootDevice(ctx context.Context, device string) error {
	if err := b.wait(ctx); err != nil {
		return err
	}
	b.mu.Lock()
	b.boot = device
	b.mu.Unlock()
	return nil
}
