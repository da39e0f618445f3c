package maassim

import (
	"context"
	"fmt"
	"time"
)

// powerIntent is a BMC action decided under the lock and carried out
// after it is released, so a slow BMC stalls only its own machine.
type powerIntent struct {
	sid string
	gen int
	on  bool
	pxe bool
}

var zeroTime time.Time

func (s *Sim) power(m *machine, on, pxe bool) powerIntent {
	return powerIntent{sid: m.systemID, gen: m.gen, on: on, pxe: pxe}
}

func (s *Sim) applyPower(ctx context.Context, intents []powerIntent) {
	for _, in := range intents {
		s.mu.Lock()
		m := s.machines[in.sid]
		var bmc BMC
		if m != nil && m.host != nil {
			bmc = m.host.bmc
		}
		s.mu.Unlock()
		if bmc == nil {
			continue
		}
		err := setPower(ctx, bmc, in)
		s.mu.Lock()
		if m := s.machines[in.sid]; m != nil {
			s.recordPower(m, in, err)
		}
		s.mu.Unlock()
	}
}

func setPower(ctx context.Context, bmc BMC, in powerIntent) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if in.pxe {
		if err := bmc.SetBootDevice(ctx, BootPXE); err != nil {
			return err
		}
	}
	return bmc.SetPower(ctx, in.on)
}

// recordPower stores the outcome of a power action. A failed power-on of
// a commissioning or deploying machine fails it after MAAS's monitored
// timeout, as MAAS's status monitor does.
func (s *Sim) recordPower(m *machine, in powerIntent, err error) {
	verb := map[bool]string{true: "on", false: "off"}[in.on]
	if err != nil {
		m.powerState = "error"
		s.event(m, levelError, "Failed to power "+verb+" node",
			fmt.Sprintf("Power %s for the node failed: %v", verb, err))
		s.emit(m, "machine.updated")
		if m.gen == in.gen {
			m.gen++ // the host never booted: cancel the normal completion
			switch m.status {
			case StatusCommissioning, StatusTesting:
				s.schedule(m, tFailTimeout, s.now(), s.opts.Durations.CommissioningTimeout)
			case StatusDeploying:
				s.schedule(m, tFailTimeout, s.now(), s.opts.Durations.DeployingTimeout)
			case StatusDiskErasing:
				if in.on { // start_disk_erasing's errback
					s.must(m, StatusFailedDiskErasing)
				}
			}
		}
		return
	}
	if m.powerState != verb {
		m.powerState = verb
		s.event(m, levelDebug, "Node powered "+verb, "")
		s.emit(m, "machine.updated")
	}
}
