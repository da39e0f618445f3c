package workflow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// ensure_pxe_interface_auto (seed 001 §4.3): a PXE interface linked the
// wrong way is unlinked and linked AUTO on its subnet, and the run goes
// on; one that cannot be fixed (no subnet on the PXE VLAN) stops a strict
// preflight before any change, and only warns a lax one, whose deployed
// host then has no address to be reached on (post-deploy connectivity).
func TestPXEInterfaceRelink(t *testing.T) {
	cases := []struct {
		name          string
		noSubnet      bool // the site's PXE VLAN has no subnet
		strict        bool
		status        lifecycle.JobState
		stage         lifecycle.Stage // where a failed run stops
		class         lifecycle.FailureClass
		unlink, links int
	}{
		{"linked link_up: relinked AUTO", false, true, lifecycle.JobCompleted, "", "", 1, 1},
		{"not fixable, strict: fails closed", true, true, lifecycle.JobFailedManualIntervention,
			lifecycle.StageEnsurePXEInterfaceAuto, lifecycle.FailHardwareMismatch, 0, 0},
		{"not fixable, lax: warns and goes on", true, false, lifecycle.JobFailedManualIntervention,
			lifecycle.StageEnsureHardwareSync, lifecycle.FailPostDeployConnectivity, 0, 0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			ctx := context.Background()
			host, ip := "c09u1"+string(rune('1'+i)), "10.0.9.5"+string(rune('1'+i))
			sid := readyMachine(t, s, host, ip, maassim.HostSpec{})
			s.linkUp(t, sid)
			_, err := s.store.UpdateSitePolicy(ctx, "site-1", func(p *lifecycle.SitePolicy) error { p.StrictPXEPreflight = c.strict; return nil })
			must(t, err)
			if c.noSubnet {
				s.linkUpNoSubnet(t, sid)
				_, err := s.store.UpdateSite(ctx, "site-1", func(x *lifecycle.Site) error { x.PXEVLANVID = 3999; return nil })
				must(t, err)
			}
			r := s.wait(s.onboard(host, ip), 60*time.Second)
			if r.Status != c.status {
				t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
			}
			if c.status != lifecycle.JobCompleted && (r.CurrentStage != c.stage || r.FailureClass != c.class) {
				t.Errorf("failed at %s as %s, want %s as %s", r.CurrentStage, r.FailureClass, c.stage, c.class)
			}
			if u, l := s.nicOps("unlink_subnet"), s.nicOps("link_subnet"); u != c.unlink || l != c.links+1 {
				t.Errorf("%d unlinks, %d links (one by the test); want %d, %d", u, l, c.unlink, c.links+1)
			}
			if got := s.pxeModes(t, sid); c.links == 1 && got != "auto" {
				t.Errorf("PXE interface links %q, want auto", got)
			}
		})
	}
}

// linkUp replaces the PXE interface's links with a link_up one on the
// subnet it had, as an operator editing it by hand might.
func (s *site) linkUp(t *testing.T, sid string) {
	ctx := context.Background()
	nics, err := s.client(t).NICs(ctx, sid)
	must(t, err)
	nic := nics[0]
	subnet := nic.Links[0].SubnetID
	must(t, s.sim.UnlinkPXE(ctx, sid))
	_, err = s.client(t).Link(ctx, sid, nic.ID, "link_up", subnet, "")
	must(t, err)
}

// linkUpNoSubnet leaves the PXE interface with one link_up link to no
// subnet: nothing says where its PXE link belongs.
func (s *site) linkUpNoSubnet(t *testing.T, sid string) {
	ctx := context.Background()
	must(t, s.sim.UnlinkPXE(ctx, sid))
}

// nicOps counts the interface operations op the run made (the test's own
// link is made before the run and counted too).
func (s *site) nicOps(op string) int {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	n := 0
	for _, c := range s.log.calls {
		if strings.Contains(c, "/interfaces/") && strings.HasSuffix(c, " "+op) {
			n++
		}
	}
	return n
}

// pxeModes lists the link modes of the machine's PXE interface.
func (s *site) pxeModes(t *testing.T, sid string) string {
	nics, err := s.client(t).NICs(context.Background(), sid)
	must(t, err)
	var modes []string
	for _, n := range nics {
		if n.Name == "eno8303" {
			for _, l := range n.Links {
				modes = append(modes, l.Mode)
			}
		}
	}
	return strings.Join(modes, ",")
}
