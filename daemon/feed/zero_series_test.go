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

// reasonedListener is a scripted listener whose Down reasons are a fixed
// set (feed.ListenReasons), as pglisten's are.
type reasonedListener struct {
	*scriptListener
	reasons []string
}

func (l reasonedListener) Reasons() []string { return l.reasons }

// A listening site's listener errors exist at zero for every reason its
// listener can report, before the listener has connected or failed.
func TestListenerErrorSeriesExistBeforeTheFirstError(t *testing.T) {
	l := newScriptListener()
	o := listenOpts(l)
	o.listener = reasonedListener{l, []string{"auth", "lost"}}
	s := newSite(t, o)
	<-l.started
	for _, reason := range []string{"auth", "lost"} {
		s.eventually(time.Second, "errors{"+reason+"} at zero", func() bool {
			return s.has("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", reason)
		})
		if got := s.metric("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", reason); got != 0 {
			t.Errorf("errors{%s} = %v, want 0", reason, got)
		}
	}
	if s.has("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", "other") {
		t.Error("errors{other}: a reason the listener does not report has a series")
	}
}
