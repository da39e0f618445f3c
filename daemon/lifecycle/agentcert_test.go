package lifecycle

import (
	"testing"
	"time"
)

func TestCheckAgentCert(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var n Node
	n.SetAgentCert("a1", []byte{1}, false, time.Time{})
	if v := n.CheckAgentCert("a1", t0); v != CertCurrent {
		t.Fatalf("enrolled serial: %s", v)
	}
	n.SetAgentCert("b2", []byte{2}, true, t0.Add(5*time.Minute))
	tests := []struct {
		name   string
		serial string
		at     time.Time
		want   CertVerdict
	}{
		{"renewed serial", "b2", t0, CertCurrent},
		{"old serial in the overlap", "a1", t0.Add(time.Minute), CertPrevious},
		{"old serial after the overlap", "a1", t0.Add(5 * time.Minute), CertSuperseded},
		{"a serial never issued", "zz", t0, CertSuperseded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := n.CheckAgentCert(tt.serial, tt.at); got != tt.want {
				t.Errorf("CheckAgentCert(%q) = %s, want %s", tt.serial, got, tt.want)
			}
		})
	}
	n.EndCertOverlap()
	if v := n.CheckAgentCert("a1", t0); v != CertSuperseded {
		t.Errorf("old serial after the new one was used: %s, want superseded", v)
	}
	n.SetAgentCert("c3", []byte{3}, false, time.Time{})
	if n.PrevAgentCertSerial != "" {
		t.Errorf("an enrollment left an overlap for %q", n.PrevAgentCertSerial)
	}
	n.ClearAgentIdentity(t0)
	for _, s := range []string{"c3", "b2", ""} {
		if v := n.CheckAgentCert(s, t0); v != CertRevoked {
			t.Errorf("after clearing, %q is %s, want revoked", s, v)
		}
	}
}
