package lifecycle

import (
	"testing"
	"time"
)

func TestNewDecommissionRun(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	node := Node{ID: "n1", SiteID: "s1", Hostname: "c01", IPMIIP: "10.0.0.1", Status: NodeActive, MaasSystemID: "abc123"}
	cases := []struct {
		name string
		node func(Node) Node
		req  DecommissionRequest
		code Code
	}{
		{"reimage", func(n Node) Node { return n }, DecommissionRequest{Mode: ModeReimage, Erase: EraseQuick}, ""},
		{"soft reset of a quarantined node", func(n Node) Node { n.Status = NodeQuarantined; return n },
			DecommissionRequest{Mode: ModeSoftReset, Storage: StorageLocal}, ""},
		{"erase on soft reset", func(n Node) Node { return n }, DecommissionRequest{Mode: ModeSoftReset, Erase: EraseQuick}, CodeInvalid},
		{"retired node", func(n Node) Node { n.Status = NodeRetired; return n }, DecommissionRequest{Mode: ModeSoftReset}, CodeConflict},
		{"enrolling node", func(n Node) Node { n.Status = NodeEnrolling; return n }, DecommissionRequest{Mode: ModeSoftReset}, CodeConflict},
		{"full without a machine", func(n Node) Node { n.MaasSystemID = ""; return n },
			DecommissionRequest{Mode: ModeFullDecommission}, CodeConflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewDecommissionRun("r1", c.node(node), c.req, "alice", now)
			if ErrorCode(err) != c.code {
				t.Fatalf("err = %v, want code %q", err, c.code)
			}
			if err != nil {
				return
			}
			if r.Kind != RunDecommission || r.Status != JobPending || r.NodeID != "n1" || r.SiteID != "s1" ||
				r.MaasSystemID != "abc123" || r.Mode != c.req.Mode || r.Erase == "" || r.StorageCleanup == "" ||
				!r.RequestedAt.Equal(now) || r.RequestedBy != "alice" {
				t.Fatalf("run = %+v", r)
			}
		})
	}
}

func TestDecommissionTimeoutsDefaultWhenUnset(t *testing.T) {
	p := DefaultSitePolicy("s1")
	p.ReleaseTimeoutSeconds, p.PowerOffTimeoutSeconds, p.AgentTaskTimeoutSeconds = 0, 0, 0
	if err := p.Validate(); err != nil {
		t.Fatalf("a policy stored before the decommission timeouts must stay valid: %v", err)
	}
	if got := p.TimeoutFor("power_off_timeout"); got != defaultPowerOffTimeout*time.Second {
		t.Fatalf("power_off_timeout = %s", got)
	}
	p.PowerOffTimeoutSeconds = 5
	if err := p.Validate(); err == nil {
		t.Fatal("a 5 s power-off timeout passed validation")
	}
}
