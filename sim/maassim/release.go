package maassim

import "time"

// releasable are the statuses op=release accepts (models/node.py:943).
var releasable = map[Status]bool{
	StatusAllocated: true, StatusReserved: true, StatusBroken: true, StatusDeploying: true, StatusDeployed: true,
	StatusFailedDeployment: true, StatusFailedDiskErasing: true, StatusFailedReleasing: true,
}

type releaseParams struct {
	erase, secure, quick, force bool
	comment                     string
}

// startRelease is op=release: Ready and Releasing are no-ops; releasable
// statuses go to Disk erasing when any erase flag is set (secure_erase or
// quick_erase alone imply erase, forms/ephemeral.py ReleaseForm), else
// they are released at once.
func (s *Sim) startRelease(m *machine, p releaseParams) ([]powerIntent, *apiError) {
	if m.status == StatusReady || m.status == StatusReleasing {
		return nil, nil
	}
	if !releasable[m.status] {
		return nil, conflict("Machine cannot be released in its current state ('%s').", m.status)
	}
	if p.erase || p.secure || p.quick {
		return s.startErase(m, p), nil
	}
	s.event(m, levelDebug, "User releasing node", s.requestDesc(p.comment))
	return s.releaseNode(m, s.now()), nil
}

// releaseNode is MAAS's Node._release: Releasing and a power-off; Ready at
// once when the machine is already off or has no BMC to power it off,
// otherwise once the power-off has taken (Durations.Releasing after from).
func (s *Sim) releaseNode(m *machine, from time.Time) []powerIntent {
	off := m.powerState == "off" || m.host == nil
	s.must(m, StatusReleasing)
	s.event(m, levelInfo, "Releasing", "")
	if off {
		s.finishRelease(m)
		return nil
	}
	s.schedule(m, tReleased, from, s.opts.Durations.Releasing)
	return []powerIntent{s.power(m, false, false)}
}

// finishRelease is _finalize_release: Ready, and the deployment forgotten.
func (s *Sim) finishRelease(m *machine) {
	s.must(m, StatusReady)
	s.clearDeployment(m)
	m.eraseMode = ""
	s.event(m, levelInfo, "Released", "")
}

// abort is op=abort (models/node.py abort_operation).
func (s *Sim) abort(m *machine, comment string) ([]powerIntent, *apiError) {
	var to Status
	switch m.status {
	case StatusCommissioning:
		to = StatusNew
	case StatusDeploying:
		to = StatusAllocated
	case StatusDiskErasing:
		return s.abortErase(m, comment), nil
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
// Only Broken machines can be fixed; Failed disk erasing is not Broken.
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
