package cli

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

// watchOutage is how long a watch keeps polling through a daemon that
// cannot answer (503, or no connection: a restart, a cluster electing a
// new leader) before it gives up.
const watchOutage = 2 * time.Minute

// outage tracks a watch's failed polls: the first transient failure is
// reported on stderr and the watch goes on; one that lasts watchOutage
// (counted in poll intervals), or any other error, ends it.
type outage struct {
	down time.Duration // polls failed in a row, times the interval
}

// tolerate says whether the watch may poll again after err (nil: the poll
// succeeded).
func (o *outage) tolerate(s *session, err error) bool {
	if err == nil {
		if o.down > 0 {
			s.warnf("the daemon answers again; watching on\n")
		}
		o.down = 0
		return true
	}
	if !transient(err) {
		return false
	}
	if o.down == 0 {
		s.warnf("the daemon cannot answer now (%v); watching on for up to %s\n", err, watchOutage)
	}
	o.down += s.env.Interval
	return o.down < watchOutage
}

// transient: the daemon was unavailable (503) or could not be reached.
func transient(err error) bool {
	var ae *adminclient.APIError
	if errors.As(err, &ae) {
		return ae.Status == http.StatusServiceUnavailable
	}
	var ne net.Error // *net.OpError, timeouts
	return errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded)
}
