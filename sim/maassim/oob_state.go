package maassim

import (
	"context"
	"time"
)

// ReleaseOutOfBand releases m as an admin would in the MAAS UI.
func (s *Sim) ReleaseOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		return s.startRelease(m, releaseParams{})
	})
}

// DeleteOutOfBand deletes m from MAAS.
func (s *Sim) DeleteOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		s.deleteMachine(m)
		return nil, nil
	})
}

// RedeployOutOfBand releases a deployed m at once and deploys it again with
// its previous OS and user data, as "maas machine release; deploy" would.
func (s *Sim) RedeployOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		d := deployParams{osystem: m.osystem, series: m.distro, userData: m.userData, hwSync: m.enableHWSync}
		if err := s.setStatus(m, StatusReleasing); err != nil {
			return nil, err
		}
		s.finishRelease(m)
		return s.startDeployment(m, d)
	})
}

// PowerOffOutOfBand powers m off at its BMC, as a person at the rack would.
func (s *Sim) PowerOffOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		return []powerIntent{s.power(m, false, false)}, nil
	})
}

// MarkBrokenOutOfBand marks m broken with comment.
func (s *Sim) MarkBrokenOutOfBand(ctx context.Context, sid, comment string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		return nil, s.markBroken(m, comment)
	})
}

// ChangeIPOutOfBand gives every AUTO link of m a new address.
func (s *Sim) ChangeIPOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		for _, ifc := range m.ifaces {
			for _, l := range ifc.links {
				if l.mode == "auto" && l.ip != "" {
					if sn := s.findSubnet(l.subnet); sn != nil {
						l.ip = s.allocIP(sn)
					}
				}
			}
		}
		s.emit(m, "machine.updated")
		return nil, nil
	})
}

// SetBMC makes the BMC at a power address slow (wall-time delay per call)
// or dead. It works on MemBMCs; it returns false for other BMCs.
func (s *Sim) SetBMC(powerAddress string, delay time.Duration, dead bool) bool {
	b, ok := s.memBMC(powerAddress)
	if ok {
		b.SetDelay(delay)
		b.SetDead(dead)
	}
	return ok
}

// SetBMCStuckOn makes the MemBMC at a power address accept power-offs
// and stay on (MemBMC.SetStuckOn); it returns false for other BMCs.
func (s *Sim) SetBMCStuckOn(powerAddress string, stuck bool) bool {
	b, ok := s.memBMC(powerAddress)
	if ok {
		b.SetStuckOn(stuck)
	}
	return ok
}

// memBMC is the MemBMC of the host at a power address, if it has one.
func (s *Sim) memBMC(powerAddress string) (*MemBMC, bool) {
	s.mu.Lock()
	h, ok := s.hosts[powerAddress]
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	b, ok := h.bmc.(*MemBMC)
	return b, ok
}

// RecommissionOutOfBand moves a deployed m straight into Commissioning, as
// a firmware update that reboots the node into commissioning does.
func (s *Sim) RecommissionOutOfBand(ctx context.Context, sid string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		if err := s.setStatus(m, StatusReleasing); err != nil {
			return nil, err
		}
		s.finishRelease(m)
		return s.startCommissioning(m, commissionParams{enableSSH: true, skipBMCConfig: true})
	})
}

// SetHardwareSyncOutOfBand sets m's hardware-sync state as an admin (or a
// stopped sync timer) would: enable_hw_sync, the sync interval in seconds
// and the last sync time (zero for never).
func (s *Sim) SetHardwareSyncOutOfBand(ctx context.Context, sid string, enabled bool, interval int, lastSync time.Time) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		m.enableHWSync, m.syncInterval, m.lastSync = enabled, interval, lastSync
		s.emit(m, "machine.updated")
		return nil, nil
	})
}

// DeployOutOfBand deploys machine sid as MAAS user owner would, with
// series ("ubuntu/jammy"): another client's deploy, which the sidecar
// must never take for its own.
func (s *Sim) DeployOutOfBand(ctx context.Context, sid, owner, series string) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		var d deployParams
		var aerr *apiError
		if d.osystem, d.series, aerr = s.parseSeries(series); aerr != nil {
			return nil, aerr
		}
		intents, aerr := s.startDeployment(m, d)
		if aerr == nil {
			m.owner = owner
		}
		return intents, aerr
	})
}
