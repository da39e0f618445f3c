package cli

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

func init() { commands["cluster status"] = clusterStatus }

// clusterAnswer is GET /cluster.
type clusterAnswer struct {
	Cluster struct {
		Backend, Daemon, Self, Leader string
		Clustered                     bool
		Members                       []struct {
			ID               uint64
			Address, Role    string
			Reachable        bool
			RoundTripSeconds float64 `json:"round_trip_seconds"`
			ProbeError       string  `json:"probe_error"`
		}
	}
	Leases []struct {
		SiteID    string     `json:"site_id"`
		SiteName  string     `json:"site_name"`
		Holder    string     `json:"holder"`
		Epoch     uint64     `json:"epoch"`
		ExpiresAt *time.Time `json:"expires_at"`
		Expired   bool       `json:"expired"`
	}
}

// clusterStatus prints the store's members and the Raft leader, then the
// lease holder of every site. For lag, which dqlite does not report per
// follower, each member shows whether it answered a probe just now and
// the probe's round trip.
func clusterStatus(ctx context.Context, s *session, args []string) error {
	s.flags()
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	var out clusterAnswer
	raw, err := s.call(ctx, http.MethodGet, admin+"/cluster", nil, &out, nil)
	if err != nil {
		return err
	}
	c := out.Cluster
	if s.output == "json" {
		return s.show(raw, "", nil)
	}
	if !c.Clustered {
		s.printf("the store is not clustered (backend %s): daemon %s drives every site\n\n", c.Backend, dash(c.Daemon))
	} else {
		s.printf("backend %s, daemon %s (member %s), leader %s\n\n", c.Backend, dash(c.Daemon), dash(c.Self), dash(c.Leader))
		rows := [][]string{}
		for _, m := range c.Members {
			rows = append(rows, []string{fmt.Sprint(m.ID), m.Address, m.Role, yes(m.Address == c.Leader),
				yes(m.Reachable), roundTrip(m.Reachable, m.RoundTripSeconds)})
		}
		if err := s.show(nil, "MEMBER ADDRESS ROLE LEADER ANSWERS ROUND-TRIP", rows); err != nil {
			return err
		}
		s.printf("\n")
	}
	rows := [][]string{}
	for _, l := range out.Leases {
		exp := "-"
		if l.ExpiresAt != nil {
			exp = l.ExpiresAt.Format(time.RFC3339)
			if l.Expired {
				exp += " (expired)"
			}
		}
		rows = append(rows, []string{l.SiteID, l.SiteName, dash(l.Holder), fmt.Sprint(l.Epoch), exp})
	}
	return s.show(nil, "SITE NAME HOLDER EPOCH EXPIRES", rows)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// roundTrip is a probe's round trip in milliseconds, "-" without an answer.
func roundTrip(answered bool, seconds float64) string {
	if !answered {
		return "-"
	}
	return fmt.Sprintf("%.1fms", seconds*1000)
}
