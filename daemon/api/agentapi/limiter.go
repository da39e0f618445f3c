package agentapi

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// sources holds one token bucket per client address for enrollment.
// Buckets idle for longer than sourceIdle are dropped when the map grows.
type sources struct {
	mu      sync.Mutex
	every   time.Duration
	burst   int
	buckets map[string]*bucket
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

const (
	sourceIdle = 10 * time.Minute
	maxSources = 10000
)

// allow reports whether the request's source may enroll at now, and if
// not, how long until it may.
func (s *sources) allow(r *http.Request, now time.Time) (bool, time.Duration) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.buckets == nil {
		s.buckets = make(map[string]*bucket)
	}
	b, ok := s.buckets[host]
	if !ok {
		if len(s.buckets) >= maxSources {
			s.prune(now)
		}
		b = &bucket{lim: rate.NewLimiter(rate.Every(s.every), s.burst)}
		s.buckets[host] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

func (s *sources) prune(now time.Time) {
	for k, b := range s.buckets {
		if now.Sub(b.seen) > sourceIdle {
			delete(s.buckets, k)
		}
	}
}
