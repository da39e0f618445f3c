package maassim

import (
	"context"
	"maps"
	"net/url"
	"strings"
	"time"
)

// EraseOp is the fault key of op=release with erase, secure_erase or
// quick_erase set; a fault programmed for it applies to those releases
// instead of the "release" one.
const EraseOp = "erase"

// faultKey names the fault that applies to c: its op, EraseOp for an
// erasing release that has a fault of its own, or "<METHOD> <resource>".
func (s *Sim) faultKey(c *call, kind string) string {
	if c.op == "" {
		return c.method + " " + kind
	}
	if c.op == "release" && eraseAsked(c.params) {
		s.mu.Lock()
		_, ok := s.faults.ops[EraseOp]
		ok = ok || len(s.faults.late[EraseOp]) > 0
		s.mu.Unlock()
		if ok {
			return EraseOp
		}
	}
	return c.op
}

func eraseAsked(p url.Values) bool {
	for _, k := range []string{"erase", "secure_erase", "quick_erase"} {
		switch strings.ToLower(p.Get(k)) {
		case "1", "true", "on", "yes":
			return true
		}
	}
	return false
}

// holdAnswer waits out the Hold of key's fault after the request has
// acted. It returns false when the client went away meanwhile: the answer
// is lost, the change it reports is not.
func (s *Sim) holdAnswer(ctx context.Context, key string) bool {
	s.mu.Lock()
	f, ok := s.faultLocked(key)
	if !ok || f.Hold <= 0 {
		s.mu.Unlock()
		return true
	}
	s.faults.holding++
	s.faults.held[key]++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.faults.holding--
		s.mu.Unlock()
	}()
	t := time.NewTimer(f.Hold)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// HoldStats says what the Hold faults are doing: how many answers are
// held right now, and how many have been held so far by fault key.
type HoldStats struct {
	Holding int            `json:"holding"`
	Held    map[string]int `json:"held"`
}

// Holds returns the current HoldStats. A crash test polls it to kill the
// client while MAAS has acted and the answer is still held.
func (s *Sim) Holds() HoldStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return HoldStats{Holding: s.faults.holding, Held: maps.Clone(s.faults.held)}
}
