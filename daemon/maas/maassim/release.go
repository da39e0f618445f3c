package maassim

// releasable are the statuses op=release accepts (models/node.py:943).
var releasable = map[Status]bool{
	StatusAllocated: true, StatusReserved: true, StatusBroken: true, StatusDeploying: true, StatusDeployed: true,
	StatusFailedDeployment: true, StatusFailedDiskErasing: true, StatusFailedReleasing: true,
}

type releaseParams struct{ erase, secure, quick, force bool }

// startRelease is op=release: Ready and Releasing are no-ops, releasable
// statuses power off and go to Releasing or Disk erasing.
func (s *Sim) startRelease(m *machine, p releaseParams) ([]powerIntent, *apiError) {
	if m.status == StatusReady || m.status == StatusReleasing {
		return nil, nil
	}
	if !releasable[m.status] {
		return nil, conflict("Machine cannot be released in its current state ('%s').", m.status)
	}
	s.event(m, levelDebug, "User releasing node", "")
	if p.erase || p.secure || p.quick {
		if err := s.setStatus(m, StatusDiskErasing); err != nil {
			return nil, err
		}
		d := s.opts.Durations.DiskErasing
		if p.quick && !p.secure {
			d = s.opts.Durations.QuickErase
		}
		m.eraseMode = map[bool]string{true: "quick", false: "secure"}[p.quick && !p.secure]
		s.event(m, levelInfo, "Disk erasing", "")
		s.schedule(m, tErased, s.now(), d)
	} else {
		if err := s.setStatus(m, StatusReleasing); err != nil {
			return nil, err
		}
		s.event(m, levelInfo, "Releasing", "")
		s.schedule(m, tReleased, s.now(), s.opts.Durations.Releasing)
	}
	return []powerIntent{s.power(m, false, false)}, nil
}

func (s *Sim) endRelease(m *machine, erased bool) {
	if erased {
		s.event(m, levelInfo, "Disks erased", "")
	}
	s.must(m, StatusReady)
	s.clearDeployment(m)
	m.eraseMode = ""
	s.event(m, levelInfo, "Released", "")
}

// abort is op=abort (models/node.py:2966-3029).
func (s *Sim) abort(m *machine) ([]powerIntent, *apiError) {
	var to Status
	switch m.status {
	case StatusCommissioning:
		to = StatusNew
	case StatusDeploying:
		to = StatusAllocated
	case StatusDiskErasing:
		to = StatusFailedDiskErasing
	case StatusTesting:
		to = m.prevStatus
	default:
		return nil, conflict("Cannot abort in current state: node %s is in state %s.", m.systemID, m.status)
	}
	if err := s.setStatus(m, to); err != nil {
		return nil, err
	}
	return []powerIntent{s.power(m, false, false)}, nil
}

// markBroken is op=mark_broken and the out-of-band fault of the same name.
func (s *Sim) markBroken(m *machine, comment string) *apiError {
	from := m.status
	if err := s.setStatus(m, StatusBroken); err != nil {
		return err
	}
	m.prevStatus = from
	m.errorDescription = comment
	s.event(m, levelError, "Marking node broken", comment)
	return nil
}

// markFixed is op=mark_fixed: back to Deployed if it broke while deployed.
func (s *Sim) markFixed(m *machine) *apiError {
	if m.status != StatusBroken {
		return conflict("Can't mark a non-broken node as 'Ready'.")
	}
	to := StatusReady
	if m.prevStatus == StatusDeployed {
		to = StatusDeployed
	}
	s.event(m, levelDebug, "Marking node fixed", "")
	m.errorDescription = ""
	return s.setStatus(m, to)
}
