package maassim

import "time"

// Event levels, numbered as Python's logging (AUDIT is MAAS's own, 0).
const (
	levelAudit    = 0
	levelDebug    = 10
	levelInfo     = 20
	levelWarning  = 30
	levelError    = 40
	levelCritical = 50
)

var levelNames = map[string]int{
	"AUDIT": levelAudit, "DEBUG": levelDebug, "INFO": levelInfo,
	"WARNING": levelWarning, "ERROR": levelError, "CRITICAL": levelCritical,
}

func levelName(l int) string {
	for n, v := range levelNames {
		if v == l {
			return n
		}
	}
	return "INFO"
}

type event struct {
	id               int
	sid, hostname    string
	username         string
	level            int
	typ, description string
	created          time.Time
}

// event appends a node event, newest last, ids increasing, and keeps an
// INFO-or-above one as the machine's status message.
func (s *Sim) event(m *machine, level int, typ, desc string) {
	s.evID++
	if level >= levelInfo {
		m.statusMessage = typ
		if desc != "" {
			m.statusMessage = typ + " - " + desc
		}
	}
	s.events = append(s.events, event{
		id: s.evID, sid: m.systemID, hostname: m.hostname, username: m.owner,
		level: level, typ: typ, description: desc, created: s.now(),
	})
	s.mirrorPoke()
}

// EventTypes returns the types of m's events, oldest first, for tests.
func (s *Sim) EventTypes(systemID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, e := range s.events {
		if e.sid == systemID {
			out = append(out, e.typ+": "+e.description)
		}
	}
	return out
}

// eventTime is MAAS's event "created" format, "%a, %d %b. %Y %H:%M:%S" UTC.
func eventTime(t time.Time) string { return t.UTC().Format("Mon, 02 Jan. 2006 15:04:05") }
