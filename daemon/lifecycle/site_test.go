package lifecycle

import (
	"bytes"
	"regexp"
	"testing"
)

func validSite() Site {
	return Site{ID: "s1", Name: "dc1-maas", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
}

func TestSiteDefaultsAndValidation(t *testing.T) {
	s := validSite()
	if s.APITokenVaultPath != "kv/maas-sites/s1/api-token" || s.DefaultPowerCredsVaultPath != "kv/maas-sites/s1/power/default" {
		t.Fatalf("vault paths = %q %q", s.APITokenVaultPath, s.DefaultPowerCredsVaultPath)
	}
	if s.DistroSeries != "ubuntu/noble" || s.DeployUser != "hpcadmin" || s.Status != SiteActive {
		t.Fatalf("defaults not applied: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(*Site){
		"name":         func(s *Site) { s.Name = " " },
		"api_base_url": func(s *Site) { s.APIBaseURL = "ftp://x" },
		"pxe_vlan_vid": func(s *Site) { s.PXEVLANVID = 5000 },
		"status":       func(s *Site) { s.Status = "paused" },
		"pxe_iface":    func(s *Site) { s.PXEIface = "" },
	}
	for field, mutate := range cases {
		s := validSite()
		mutate(&s)
		if err := s.Validate(); ErrorField(err) != field {
			t.Errorf("%s: got %v", field, err)
		}
	}
}

func TestPolicyDefaultsAndValidation(t *testing.T) {
	p := DefaultSitePolicy("s1")
	if err := p.Validate(); err != nil {
		t.Fatalf("defaults must validate: %v", err)
	}
	if p.AutoClaimSingleNewMachine || !p.RequireHWSync || p.BatchMaxParallel != 10 || p.EnrollmentTokenTTLSeconds != 7200 {
		t.Fatalf("seed defaults changed: %+v", p)
	}
	cases := map[string]func(*SitePolicy){
		"hardware_sync_interval":       func(p *SitePolicy) { p.HardwareSyncInterval = "soon" },
		"batch_max_parallel":           func(p *SitePolicy) { p.BatchMaxParallel = 0 },
		"max_deploy_retry_attempts":    func(p *SitePolicy) { p.MaxDeployRetryAttempts = -1 },
		"enrollment_token_ttl_seconds": func(p *SitePolicy) { p.EnrollmentTokenTTLSeconds = 600 },
		"site_id":                      func(p *SitePolicy) { p.SiteID = "" },
	}
	for field, mutate := range cases {
		p := DefaultSitePolicy("s1")
		mutate(&p)
		if err := p.Validate(); ErrorField(err) != field {
			t.Errorf("%s: got %v", field, err)
		}
	}
}

func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, _ := NewID(nil)
	b, _ := NewID(nil)
	if !re.MatchString(a) || a == b {
		t.Fatalf("ids %q %q", a, b)
	}
	x, _ := NewID(bytes.NewReader(make([]byte, 16)))
	if x != "00000000-0000-4000-8000-000000000000" {
		t.Fatalf("deterministic id = %q", x)
	}
	if _, err := NewID(bytes.NewReader(nil)); err == nil {
		t.Fatal("short randomness must fail")
	}
}
