package maassim

import "time"

// nodeRow is what a Mirror writes of a machine into maasserver_node.
type nodeRow struct {
	systemID, hostname, description, arch string
	osystem, distro, errDesc, powerState  string
	status, prevStatus, cpus, memory      int
	enableHWSync                          bool
	syncInterval                          *int
	lastSync                              *time.Time
}

// nodeChange is one machine to write: row nil means it was deleted.
// links: its interfaces' links changed, which MAAS's interface and IP
// address triggers announce as a machine_update.
type nodeChange struct {
	systemID string
	row      *nodeRow
	links    bool
}

func (s *Sim) addMirror(m *Mirror) {
	s.mu.Lock()
	s.mirrors = append(s.mirrors, m)
	s.mu.Unlock()
}

func (s *Sim) removeMirror(m *Mirror) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.mirrors {
		if x == m {
			s.mirrors = append(s.mirrors[:i], s.mirrors[i+1:]...)
			return
		}
	}
}

// mirrorMark queues m for every mirror; the caller holds s.mu and has
// changed (or created, or deleted) m.
func (s *Sim) mirrorMark(m *machine) {
	for _, x := range s.mirrors {
		x.mark(m.systemID)
	}
}

// mirrorLinks queues m for every mirror as a machine whose interfaces'
// links changed; the caller holds s.mu.
func (s *Sim) mirrorLinks(m *machine) {
	for _, x := range s.mirrors {
		x.mu.Lock()
		x.links[m.systemID] = true
		x.mu.Unlock()
		x.mark(m.systemID)
	}
}

// mirrorPoke wakes every mirror for a new event; the caller holds s.mu.
func (s *Sim) mirrorPoke() {
	for _, x := range s.mirrors {
		x.poke()
	}
}

func (m *Mirror) mark(sid string) {
	m.mu.Lock()
	if !m.dirty[sid] {
		m.dirty[sid] = true
		m.order = append(m.order, sid)
	}
	m.mu.Unlock()
	m.poke()
}

func (m *Mirror) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// pending takes the queued machines, as they are now, and the events
// newer than the last one written.
func (m *Mirror) pending() ([]nodeChange, []event) {
	s := m.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	m.mu.Lock()
	order, links := m.order, m.links
	m.order, m.dirty, m.links = nil, map[string]bool{}, map[string]bool{}
	m.mu.Unlock()
	changes := make([]nodeChange, 0, len(order))
	for _, sid := range order {
		c := nodeChange{systemID: sid, links: links[sid]}
		if mc, ok := s.machines[sid]; ok {
			c.row = nodeRowOf(mc)
		}
		changes = append(changes, c)
	}
	var evs []event
	for i := len(s.events); i > 0 && s.events[i-1].id > m.lastEvent; i-- {
		evs = s.events[i-1:]
	}
	return changes, append([]event(nil), evs...)
}

// snapshot takes every machine and the newest event id, and empties the
// queue: a resync writes the state as it is, not the changes that led
// there.
func (m *Mirror) snapshot() ([]nodeRow, int) {
	s := m.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	m.mu.Lock()
	m.order, m.dirty, m.links = nil, map[string]bool{}, map[string]bool{}
	m.mu.Unlock()
	rows := make([]nodeRow, 0, len(s.machines))
	for _, mc := range s.machines {
		rows = append(rows, *nodeRowOf(mc))
	}
	return rows, s.evID
}

func nodeRowOf(mc *machine) *nodeRow {
	r := &nodeRow{systemID: mc.systemID, hostname: mc.hostname, description: mc.description, arch: mc.arch,
		osystem: mc.osystem, distro: mc.distro, errDesc: mc.errorDescription, powerState: mc.powerState,
		status: int(mc.status), prevStatus: int(mc.prevStatus), cpus: mc.cpus, memory: mc.memoryMiB,
		enableHWSync: mc.enableHWSync}
	if mc.syncInterval != 0 {
		v := mc.syncInterval
		r.syncInterval = &v
	}
	if !mc.lastSync.IsZero() {
		t := mc.lastSync
		r.lastSync = &t
	}
	return r
}
