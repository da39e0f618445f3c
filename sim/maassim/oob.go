package maassim

import (
	"context"
	"fmt"
)

// Out-of-band changes: what an admin does in the MAAS UI or CLI, or what
// hardware does, behind the sidecar's back. Each returns an error when the
// machine is unknown or MAAS itself would refuse.

func (s *Sim) withMachine(ctx context.Context, sid string, fn func(m *machine) ([]powerIntent, *apiError)) error {
	s.mu.Lock()
	intents := s.settleLocked()
	m, ok := s.machines[sid]
	var more []powerIntent
	var aerr *apiError
	if !ok {
		aerr = notFound("Machine")
	} else {
		more, aerr = fn(m)
	}
	s.mu.Unlock()
	s.applyPower(ctx, append(intents, more...))
	if aerr != nil {
		return fmt.Errorf("maassim: %s: %w", sid, aerr)
	}
	return nil
}

// FailNextCommissioning makes m's next n commissionings fail.
func (s *Sim) FailNextCommissioning(ctx context.Context, sid string, n int) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		m.commissionFailures = n
		return nil, nil
	})
}

// FailNextDeployment makes m's next n deployments fail with cloud-init
// "no datasource" events.
func (s *Sim) FailNextDeployment(ctx context.Context, sid string, n int) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		m.deployFailures = n
		return nil, nil
	})
}

// RemoveBOSS removes the BOSS boot disk from a commissioned machine.
func (s *Sim) RemoveBOSS(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		kept := m.disks[:0]
		for _, d := range m.disks {
			if !d.boss {
				kept = append(kept, d)
			} else if d.id == m.bootDisk && len(m.disks) > 1 {
				m.bootDisk = 0
			}
		}
		m.disks = kept
		if m.bootDisk == 0 && len(kept) > 0 {
			m.bootDisk = kept[0].id
		}
		return nil, nil
	})
}

// UnlinkPXE removes every subnet link of m's PXE (boot) interface.
func (s *Sim) UnlinkPXE(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		if len(m.ifaces) > 0 {
			m.ifaces[0].links = nil
			s.emit(m, "machine.updated")
			s.mirrorLinks(m)
		}
		return nil, nil
	})
}
