package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The ambiguity policy of seed 001 §4.16 on the PXE discovery path: a New
// machine that was there before the run is claimed only when the site
// opts in with auto_claim_single_new_machine, and never when it is one of
// several; two machines appearing during the run are ambiguity.
func TestDiscoveryAmbiguityPolicy(t *testing.T) {
	cases := []struct {
		name      string
		autoClaim bool
		setup     func(t *testing.T, s *site)
		want      lifecycle.FailureClass // "" when the run completes
	}{
		{"sole New machine, policy off", false, func(t *testing.T, s *site) {
			s.enlisted(t, "10.0.7.10", "52:54:00:07:00:10")
		}, lifecycle.FailPXEDiscovery},
		{"sole New machine, policy on", true, func(t *testing.T, s *site) {
			s.enlisted(t, "10.0.7.10", "52:54:00:07:00:10")
		}, ""},
		{"two New machines, policy on", true, func(t *testing.T, s *site) {
			s.enlisted(t, "10.0.7.10", "52:54:00:07:00:10")
			s.enlisted(t, "10.0.7.11", "52:54:00:07:00:11")
		}, lifecycle.FailStateAmbiguity},
		{"two machines appear during the run", false, func(t *testing.T, s *site) {
			s.host("10.0.7.10", maassim.HostSpec{PXEMAC: "52:54:00:07:00:10", NoBMCDetect: true})
			s.host("10.0.7.11", maassim.HostSpec{PXEMAC: "52:54:00:07:00:11", NoBMCDetect: true})
			s.deps.Power = neighbourPower{s: s, also: "10.0.7.11"}
		}, lifecycle.FailStateAmbiguity},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Only the timeout case moves the runner's clock; the others
			// need the discovery rechecks in real time.
			var o siteOptions
			fc := clockwork.NewFakeClockAt(time.Now())
			if c.want == lifecycle.FailPXEDiscovery {
				o.clock = fc
			}
			s := newSiteWith(t, o)
			_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
				p.AutoClaimSingleNewMachine = c.autoClaim
				return nil
			})
			must(t, err)
			s.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
			c.setup(t, s)
			if _, ok := s.deps.Power.(neighbourPower); !ok {
				s.deps.Power = inertPower{} // what was going to appear already has
			}
			id := s.onboard("c08u10", "10.0.7.10")
			if c.want == lifecycle.FailPXEDiscovery {
				s.parkedAt(id, lifecycle.StageCreateOrFindInMaas, 1, true)
				fc.Advance(16 * time.Minute) // past pxe_discovery_timeout
			}
			r := s.wait(id, 60*time.Second)
			s.checkClaim(t, r, c.want)
			if got := s.detail(id, lifecycle.StageCreateOrFindInMaas, "claimed"); c.want == "" && got != "sole New machine claimed by site policy" {
				t.Errorf("claimed: %q", got)
			}
		})
	}
}

// checkClaim checks the run ended as want says, and that MAAS saw an
// identification and an acceptance exactly when a machine was claimed.
func (s *site) checkClaim(t *testing.T, r lifecycle.Run, want lifecycle.FailureClass) {
	t.Helper()
	claims := 0
	if want == "" {
		claims = 1
		if r.Status != lifecycle.JobCompleted {
			t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
		}
	} else if r.Status != want.DefaultHandling().LandsIn || r.FailureClass != want || r.CurrentStage != lifecycle.StageCreateOrFindInMaas || r.MaasSystemID != "" {
		t.Fatalf("run %s/%s at %s bound to %q (%s), want %s at create_or_find_in_maas, unbound\n%s", r.Status,
			r.FailureClass, r.CurrentStage, r.MaasSystemID, r.ErrorMessage, want, s.events(r.ID))
	}
	s.log.mu.Lock()
	puts, accepts, commissions := 0, 0, 0
	for _, c := range s.log.calls {
		switch {
		case len(c) > 4 && c[:4] == "PUT ":
			puts++
		case c == "POST /MAAS/api/2.0/machines/ accept":
			accepts++
		case len(c) > 11 && c[len(c)-11:] == " commission":
			commissions++
		}
	}
	s.log.mu.Unlock()
	if puts != claims || accepts != claims || commissions != 0 {
		t.Errorf("%d machine updates, %d accepts, %d commissions; want %d, %d, 0", puts, accepts, commissions, claims, claims)
	}
}

// enlisted racks a server whose BMC MAAS enlistment does not detect,
// PXE-boots it and waits until MAAS lists it as New: a machine that was
// there before the run.
func (s *site) enlisted(t *testing.T, ip, mac string) string {
	t.Helper()
	s.host(ip, maassim.HostSpec{PXEMAC: mac, NoBMCDetect: true})
	must(t, simPower{s}.PXEBootCycle(context.Background(), lifecycle.BMCLogin{Address: ip}))
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ms, err := s.client(t).Machines(context.Background(), lifecycle.MachineFilter{MACAddresses: []string{mac}})
		must(t, err)
		if len(ms) == 1 && ms[0].Status == lifecycle.MaasNew {
			return ms[0].SystemID
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("host %s never enlisted", ip)
	return ""
}

// neighbourPower PXE-boots the run's server and, at the same moment, the
// server at also (a neighbour rebooted by someone else).
type neighbourPower struct {
	s    *site
	also string
}

func (p neighbourPower) PXEBootCycle(ctx context.Context, b lifecycle.BMCLogin) error {
	if err := (simPower{p.s}).PXEBootCycle(ctx, lifecycle.BMCLogin{Address: p.also}); err != nil {
		return err
	}
	return simPower{p.s}.PXEBootCycle(ctx, b)
}
