package lifecycle

import "testing"

func TestValidDNSServer(t *testing.T) {
	for s, want := range map[string]bool{
		"1.1.1.1": true, "2606:4700:4700::1111": true,
		"": false, "dns.example": false, "1.1.1.1:53": false,
		"fe80::1%eth0":                      false,
		"fe80::1%x\n[Resolve]\nDNS=6.6.6.6": false,
		"1.1.1.1\nDNS=6.6.6.6":              false,
	} {
		if got := ValidDNSServer(s); got != want {
			t.Errorf("ValidDNSServer(%q) = %v, want %v", s, got, want)
		}
	}
}
