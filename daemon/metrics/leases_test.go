package metrics_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/metrics"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// A standby daemon reports 0 for the site, the holder 1 with its lease's
// acquisition and renewal times; a takeover and a loss are counted.
func TestLeaseMetrics(t *testing.T) {
	at := time.Unix(1000, 0)
	cases := []struct {
		name   string
		events []runner.LeaseEvent
		want   string
	}{
		{"standby", []runner.LeaseEvent{{Kind: runner.LeaseStandby, Site: "s1", At: at}}, `
maas_sidecar_site_lease_held{site="s1"} 0
maas_sidecar_site_lease_losses_total{site="s1"} 0
maas_sidecar_site_lease_takeovers_total{site="s1"} 0
`},
		{"takeover then renewal", []runner.LeaseEvent{{Kind: runner.LeaseStandby, Site: "s1", At: at},
			{Kind: runner.LeaseTakeover, Site: "s1", At: at.Add(15 * time.Second)},
			{Kind: runner.LeaseRenewed, Site: "s1", At: at.Add(20 * time.Second)}}, `
maas_sidecar_site_lease_acquired_timestamp_seconds{site="s1"} 1015
maas_sidecar_site_lease_held{site="s1"} 1
maas_sidecar_site_lease_losses_total{site="s1"} 0
maas_sidecar_site_lease_renewed_timestamp_seconds{site="s1"} 1020
maas_sidecar_site_lease_takeovers_total{site="s1"} 1
`},
		{"lost", []runner.LeaseEvent{{Kind: runner.LeaseAcquired, Site: "s1", At: at},
			{Kind: runner.LeaseLost, Site: "s1", At: at.Add(time.Minute)}}, `
maas_sidecar_site_lease_held{site="s1"} 0
maas_sidecar_site_lease_losses_total{site="s1"} 1
maas_sidecar_site_lease_takeovers_total{site="s1"} 0
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			l := metrics.NewLeases(reg)
			for _, e := range c.events {
				l.Observe(e)
			}
			names := []string{"maas_sidecar_site_lease_held", "maas_sidecar_site_lease_acquired_timestamp_seconds",
				"maas_sidecar_site_lease_renewed_timestamp_seconds", "maas_sidecar_site_lease_takeovers_total", "maas_sidecar_site_lease_losses_total"}
			if err := testutil.GatherAndCompare(reg, strings.NewReader(withHeaders(c.want)), names...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// withHeaders adds the HELP and TYPE lines GatherAndCompare expects.
func withHeaders(body string) string {
	heads := map[string][2]string{
		"maas_sidecar_site_lease_acquired_timestamp_seconds": {"When this daemon acquired the site lease it holds (lease age: time() minus this).", "gauge"},
		"maas_sidecar_site_lease_held":                       {"1 while this daemon holds the site's lease and drives its runs, 0 while another daemon holds it.", "gauge"},
		"maas_sidecar_site_lease_losses_total":               {"Site leases this daemon lost (superseded, refused at renewal, or lapsed by its clock).", "counter"},
		"maas_sidecar_site_lease_renewed_timestamp_seconds":  {"When this daemon last claimed or renewed the site lease it holds.", "gauge"},
		"maas_sidecar_site_lease_takeovers_total":            {"Site leases this daemon took from another daemon whose lease had expired.", "counter"},
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		name := line[:strings.IndexAny(line, "{ ")]
		if h, ok := heads[name]; ok {
			b.WriteString("# HELP " + name + " " + h[0] + "\n# TYPE " + name + " " + h[1] + "\n")
			delete(heads, name)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
