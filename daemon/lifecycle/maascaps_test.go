package lifecycle

import "testing"

func TestMissingCapability(t *testing.T) {
	caps := []MaasCapability{CapHardwareSync}
	for _, tc := range []struct {
		version string
		ok      bool
	}{
		{"3.6.5", true}, {"3.4.0", true}, {"3.4.0~rc1", true}, {"3.5.0-16345-g.abc", true}, {"4.0.0", true},
		{"1:3.4.2", true}, {"3.3.9", false}, {"3.2.0", false}, {"2.9.2", false}, {"", false}, {"None", false},
	} {
		_, msg, ok := MaasVersion{Version: tc.version}.MissingCapability(caps)
		if ok != tc.ok {
			t.Errorf("%q: ok %v (%s), want %v", tc.version, ok, msg, tc.ok)
		}
		if !ok && msg == "" {
			t.Errorf("%q: no message", tc.version)
		}
	}
	if _, _, ok := (MaasVersion{Version: "2.0.0"}).MissingCapability(RequiredMaasCapabilities(SitePolicy{})); !ok {
		t.Error("a policy without hardware sync needs nothing")
	}
}
