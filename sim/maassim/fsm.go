package maassim

import "fmt"

// setStatus moves m to the status to when MAAS's table allows it, logging
// the DEBUG "Node changed status" event and a webhook hint. It returns
// MAAS's 409 text otherwise.
func (s *Sim) setStatus(m *machine, to Status) *apiError {
	if !CanTransition(m.status, to) {
		return conflict("Invalid transition: %s -> %s.", m.status, to)
	}
	desc := fmt.Sprintf("From '%s' to '%s'", m.status, to)
	if to == StatusAllocated && m.owner != "" {
		desc += " (to " + m.owner + ")" // models/signals/events.py names the new owner
	}
	s.event(m, levelDebug, "Node changed status", desc)
	m.prevStatus, m.status = m.status, to
	m.gen++
	s.emit(m, "machine.status_changed")
	return nil
}

// must is setStatus for moves the simulator itself makes; they are legal
// by construction, and a bug shows as a logged error.
func (s *Sim) must(m *machine, to Status) {
	if err := s.setStatus(m, to); err != nil {
		s.opts.Logger.Error("maassim: illegal internal transition", "node", m.systemID, "err", err)
	}
}

// fail moves an in-progress machine to its failed status with MAAS's
// ERROR event and an error_description.
func (s *Sim) fail(m *machine, evType, desc string) {
	to, ok := failedStatus[m.status]
	if !ok {
		return
	}
	s.event(m, levelError, evType, desc)
	m.errorDescription = desc
	s.must(m, to)
	s.event(m, levelInfo, to.String(), "")
}

// clearDeployment forgets what a deployment left: owner, OS, user data,
// hardware sync, machine token and AUTO addresses (models/node.py release).
func (s *Sim) clearDeployment(m *machine) {
	m.owner, m.osystem, m.distro, m.userData = "", "", "", ""
	m.enableHWSync, m.syncInterval, m.lastSync = false, 0, zeroTime
	m.token = nil
	for _, ifc := range m.ifaces {
		for _, l := range ifc.links {
			if l.mode == "auto" {
				l.ip = ""
			}
		}
	}
}
