package feed_test

import (
	"testing"
	"time"
)

// The series a dashboard rates exist at zero before anything fails or
// moves: the feed errors of a followed site, the heartbeat transitions
// and the reconciler's actions.
func TestErrorSeriesExistBeforeTheFirstError(t *testing.T) {
	s := newSite(t, opts{poll: 20 * time.Millisecond, resync: 50 * time.Millisecond})
	s.eventually(3*time.Second, "a successful events poll and resync", func() bool {
		return s.metric("maas_sidecar_feed_last_success_timestamp_seconds", "source", "events") > 0 &&
			s.metric("maas_sidecar_feed_last_success_timestamp_seconds", "source", "resync") > 0
	})
	for _, c := range [][]string{
		{"maas_sidecar_feed_errors_total", "site", siteID, "source", "events"},
		{"maas_sidecar_feed_errors_total", "site", siteID, "source", "resync"},
		{"maas_sidecar_heartbeat_transitions_total", "to", "offline"},
		{"maas_sidecar_heartbeat_transitions_total", "to", "active"},
		{"maas_sidecar_reconcile_actions_total", "action", "quarantine"},
		{"maas_sidecar_reconcile_actions_total", "action", "release_power_off"},
	} {
		if !s.has(c[0], c[1:]...) || s.metric(c[0], c[1:]...) != 0 {
			t.Errorf("%v: want a series at 0 (has %v, value %v)", c, s.has(c[0], c[1:]...), s.metric(c[0], c[1:]...))
		}
	}
}
