package maassim

import (
	"time"
)

// startCommissioning is op=commission (and accept/create for admins).
func (s *Sim) startCommissioning(m *machine, p commissionParams) ([]powerIntent, *apiError) {
	if err := s.setStatus(m, StatusCommissioning); err != nil {
		return nil, err
	}
	m.enableSSH, m.skipBMCConfig = p.enableSSH, p.skipBMCConfig
	m.errorDescription = ""
	s.ensureToken(m)
	s.event(m, levelDebug, "User starting node commissioning", "")
	s.event(m, levelInfo, "Commissioning", "")
	s.schedule(m, tCommissioned, s.now(), s.opts.Durations.Commissioning)
	return []powerIntent{s.power(m, true, true)}, nil
}

type commissionParams struct{ enableSSH, skipBMCConfig bool }

func (s *Sim) endCommissioning(m *machine, at time.Time) []powerIntent {
	if m.commissionFailures > 0 {
		m.commissionFailures--
		s.fail(m, "Node commissioning failure", "Commissioning script 30-maas-01-bmc-config failed")
		return []powerIntent{s.power(m, false, false)}
	}
	s.discoverHardware(m)
	s.must(m, StatusTesting)
	s.event(m, levelInfo, "Testing", "")
	s.schedule(m, tTested, at, s.opts.Durations.Testing)
	return nil
}

// startDeployment is op=deploy once the request is validated: a Ready
// machine is allocated to the caller first, then Deploying.
func (s *Sim) startDeployment(m *machine, d deployParams) ([]powerIntent, *apiError) {
	if m.status == StatusReady {
		m.owner = s.opts.Username
		s.must(m, StatusAllocated)
		s.event(m, levelDebug, "User acquiring node", "")
	}
	if !CanTransition(m.status, StatusDeploying) {
		return nil, conflict("Can't deploy a machine that is in the '%s' state", m.status)
	}
	if m.owner != "" && m.owner != s.opts.Username {
		return nil, conflict("Can't allocate a machine belonging to another user.")
	}
	m.owner = s.opts.Username
	m.osystem, m.distro, m.userData = d.osystem, d.series, d.userData
	m.enableHWSync = d.hwSync
	if m.enableHWSync && m.syncInterval == 0 {
		m.syncInterval = s.configSyncInterval()
	}
	m.errorDescription = ""
	s.assignAutoIPs(m)
	s.ensureToken(m)
	s.must(m, StatusDeploying)
	s.event(m, levelDebug, "User starting deployment", "")
	s.event(m, levelInfo, "Deploying", "")
	s.event(m, levelInfo, "Performing PXE boot", "")
	s.schedule(m, tDeployed, s.now(), s.opts.Durations.Deploying)
	return []powerIntent{s.power(m, true, true)}, nil
}

type deployParams struct {
	osystem, series, userData string
	hwSync                    bool
}

func (s *Sim) endDeployment(m *machine, at time.Time) []powerIntent {
	if m.deployFailures > 0 {
		m.deployFailures--
		s.event(m, levelInfo, "Configuring OS", "")
		s.fail(m, "Node installation failure",
			"cloud-init: Failed to find a datasource: no datasource found (DataSourceNone)")
		return nil
	}
	s.event(m, levelInfo, "Installing OS", "")
	s.event(m, levelInfo, "Rebooting", "")
	s.must(m, StatusDeployed)
	if m.enableHWSync {
		m.lastSync = at
	}
	s.event(m, levelInfo, "Deployed", "")
	s.boot(m)
	return nil
}
