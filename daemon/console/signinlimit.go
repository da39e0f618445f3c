package console

import (
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Sign-in attempts per source address: a burst of signInBurst, then one
// per signInEvery. The table holds at most maxSignInSources addresses.
const (
	signInBurst      = 10
	signInEvery      = 6 * time.Second
	maxSignInSources = 4096
)

// signInLimit is a token bucket per source address for POST
// /console/login. Behind a reverse proxy every browser shares the proxy's
// address and so its bucket.
type signInLimit struct {
	mu      sync.Mutex
	buckets map[string]*signInBucket
}

type signInBucket struct {
	lim      *rate.Limiter
	seen     time.Time
	refusing bool // the source's current burst was already logged
}

// allow reports whether src may try to sign in at now; when not, how long
// until it may, and whether this is the first refusal of its burst.
func (l *signInLimit) allow(src string, now time.Time) (ok bool, retry time.Duration, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = make(map[string]*signInBucket)
	}
	b := l.buckets[src]
	if b == nil {
		l.makeRoom(now)
		b = &signInBucket{lim: rate.NewLimiter(rate.Every(signInEvery), signInBurst)}
		l.buckets[src] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		first, b.refusing = !b.refusing, true
		return false, d, first
	}
	b.refusing = false
	return true, 0, false
}

// makeRoom keeps the table under maxSignInSources: it drops the sources
// whose bucket has refilled (as good as new), then, when that is not
// enough, the least recently seen quarter (one sort per many inserts).
func (l *signInLimit) makeRoom(now time.Time) {
	if len(l.buckets) < maxSignInSources {
		return
	}
	for k, b := range l.buckets {
		if now.Sub(b.seen) > signInEvery*signInBurst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < maxSignInSources {
		return
	}
	keys := slices.SortedFunc(maps.Keys(l.buckets), func(a, b string) int {
		return l.buckets[a].seen.Compare(l.buckets[b].seen)
	})
	for _, k := range keys[:len(keys)/4] {
		delete(l.buckets, k)
	}
}

// source is the request's client address without its port.
func source(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
