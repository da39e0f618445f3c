package feed_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// maas_sidecar_maas_up follows whether the site's MAAS answers the feed's
// events requests: 0 while it answers 503, 1 again once it answers, 1
// for an answer that refuses (MAAS is up, the token is wrong), and gone
// once this daemon stops following the site (another one holds it).
func TestMaasUpFollowsReachability(t *testing.T) {
	var held atomic.Bool
	held.Store(true)
	s := newSite(t, opts{poll: 20 * time.Millisecond, resync: time.Hour, follows: func(string) bool { return held.Load() }})
	up := func(want float64) func() bool {
		return func() bool {
			return s.has("maas_sidecar_maas_up", "site", siteID) && s.metric("maas_sidecar_maas_up", "site", siteID) == want
		}
	}
	s.eventually(3*time.Second, "MAAS up", up(1))
	s.sim.SetOpFault("query", maassim.OpFault{ErrorRate: 1})
	s.eventually(10*time.Second, "MAAS down while it answers 503", up(0))
	s.sim.SetOpFault("query", maassim.OpFault{ErrorRate: 1, Status: http.StatusUnauthorized})
	s.eventually(10*time.Second, "MAAS up while it refuses the token", up(1))
	s.sim.SetOpFault("query", maassim.OpFault{ErrorRate: 1})
	s.eventually(10*time.Second, "MAAS down again", up(0))
	held.Store(false)
	s.feed.Refollow()
	s.eventually(3*time.Second, "the series dropped once another daemon follows the site", func() bool {
		return !s.has("maas_sidecar_maas_up", "site", siteID)
	})
}
