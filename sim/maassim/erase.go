package maassim

import (
	"context"
	"time"
)

// Erase methods of MAAS's wipe-disks release script.
const (
	eraseFull   = "full"   // overwrite the whole disk with zeros (erase alone)
	eraseQuick  = "quick"  // 2 MiB at the start and the end of each disk
	eraseSecure = "secure" // the drive's own secure erase
)

// eraseMethod picks the method as wipe-disks does (api/machines.py release
// docs): secure erase where the drives have it; otherwise quick when asked,
// else a full overwrite.
func eraseMethod(p releaseParams, h *host) string {
	secureOK := h == nil || !h.spec.NoSecureErase
	switch {
	case p.secure && secureOK:
		return eraseSecure
	case p.quick:
		return eraseQuick
	}
	return eraseFull
}

func (s *Sim) eraseDuration(method string) time.Duration {
	switch method {
	case eraseQuick:
		return s.opts.Durations.QuickErase
	case eraseSecure:
		return s.opts.Durations.SecureErase
	}
	return s.opts.Durations.DiskErasing
}

// startErase is op=release with erase (models/node.py start_releasing with
// the wipe-disks script alone): Disk erasing, and the machine is powered on
// into the ephemeral environment that runs the script.
func (s *Sim) startErase(m *machine, p releaseParams) []powerIntent {
	s.event(m, levelDebug, "User erasing disk", s.requestDesc(p.comment))
	s.must(m, StatusDiskErasing)
	m.eraseMode = eraseMethod(p, m.host)
	m.errorDescription = ""
	s.schedule(m, tErased, s.now(), s.eraseDuration(m.eraseMode))
	return []powerIntent{s.power(m, true, true)}
}

// endErase is wipe-disks' signal: on success "Disks erased" and MAAS
// releases the machine (api_twisted.py, modules-final); on failure
// mark_failed moves it to Failed disk erasing with MAAS's comment.
func (s *Sim) endErase(m *machine, at time.Time) []powerIntent {
	method := m.eraseMode
	m.eraseMode = ""
	if m.eraseFailures > 0 {
		m.eraseFailures--
		const why = "Failed to erase disks."
		s.event(m, levelError, "Marking node failed", why)
		m.errorDescription = why
		s.must(m, StatusFailedDiskErasing)
		return nil
	}
	if m.eraseNoops > 0 {
		m.eraseNoops-- // wipe-disks "succeeds" without touching a disk
	} else if s.onErase != nil {
		s.onErase(Erased{SystemID: m.systemID, Hostname: m.hostname, Method: method})
	}
	s.event(m, levelInfo, "Disks erased", "")
	s.event(m, levelDebug, "User releasing node", "")
	return s.releaseNode(m, at)
}

// Erased is a finished disk erase: the machine and wipe-disks' method
// (full, quick or secure).
type Erased struct {
	SystemID, Hostname, Method string
}

// OnErase registers fn to run when a disk erase finishes, to wipe the
// simulated host's disks as the method does. It runs with the simulator
// locked, before the machine is released: it must be quick and must not
// call the simulator.
func (s *Sim) OnErase(fn func(Erased)) {
	s.mu.Lock()
	s.onErase = fn
	s.mu.Unlock()
}

// EraseDoesNothing makes m's next n disk erasures report success ("Disks
// erased") without erasing anything, as MAAS was seen to do: OnErase is
// not called.
func (s *Sim) EraseDoesNothing(ctx context.Context, sid string, n int) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		m.eraseNoops = n
		return nil, nil
	})
}

// abortErase is op=abort of a Disk erasing machine (abort_disk_erasing):
// MAAS powers it off and, once the power-off is sent, after answering,
// moves it to Failed disk erasing. The answer still says Disk erasing; a
// power-off that fails leaves it there.
func (s *Sim) abortErase(m *machine, comment string) []powerIntent {
	s.event(m, levelDebug, "User aborting disk erase", s.requestDesc(comment))
	s.event(m, levelInfo, "Aborted disk erasing", "")
	m.gen++ // the erase never completes
	s.schedule(m, tEraseAborted, s.now(), 0)
	return []powerIntent{s.power(m, false, false)}
}

// requestDesc is the description MAAS gives a user's request event:
// "(user)" or "(user) - comment".
func (s *Sim) requestDesc(comment string) string {
	if comment == "" {
		return "(" + s.opts.Username + ")"
	}
	return "(" + s.opts.Username + ") - " + comment
}

// FailNextErase makes m's next n disk erasures fail, as wipe-disks does on
// a drive that refuses to be wiped: the machine ends in Failed disk erasing.
func (s *Sim) FailNextErase(ctx context.Context, sid string, n int) error {
	return s.withMachine(ctx, sid, func(m *machine) ([]powerIntent, *apiError) {
		m.eraseFailures = n
		return nil, nil
	})
}
