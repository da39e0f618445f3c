package lifecycle

import (
	"fmt"
	"testing"
)

func TestSelectPowerCredentialsEveryCombination(t *testing.T) {
	const def = "kv/maas-sites/s1/power/default"
	ovr := func(by SelectorType, v, path string) PowerOverride {
		return PowerOverride{SelectorType: by, SelectorValue: v, VaultPath: path, Status: "active"}
	}
	byMAC := ovr(SelectPXEMac, "aa:bb:cc:dd:ee:01", "kv/mac")
	byIP := ovr(SelectIPMIIP, "10.0.0.5", "kv/ip")
	byHost := ovr(SelectHostname, "c07u43", "kv/host")
	keys := NodeKeys{PXEMac: "AA-BB-CC-DD-EE-01", IPMIIP: "10.0.0.5", Hostname: "C07U43"}
	// Every subset of the three overrides: the strongest present selector wins.
	for mask := 0; mask < 8; mask++ {
		var list []PowerOverride
		want := def
		for bit, o := range []PowerOverride{byHost, byIP, byMAC} { // weakest first
			if mask&(1<<bit) != 0 {
				list = append(list, o)
				want = o.VaultPath
			}
		}
		t.Run(fmt.Sprintf("mask%03b", mask), func(t *testing.T) {
			if got := SelectPowerCredentials(def, list, keys).VaultPath; got != want {
				t.Fatalf("got %s, want %s", got, want)
			}
		})
	}
	inactive := byMAC
	inactive.Status = "inactive"
	if got := SelectPowerCredentials(def, []PowerOverride{inactive, byIP}, keys); got.VaultPath != "kv/ip" || got.Override == nil {
		t.Fatalf("inactive override must be skipped: %+v", got)
	}
	if got := SelectPowerCredentials(def, []PowerOverride{byMAC, byIP, byHost}, NodeKeys{Hostname: "c07u43"}); got.VaultPath != "kv/host" {
		t.Fatalf("empty keys match nothing: %+v", got)
	}
	if got := SelectPowerCredentials(def, []PowerOverride{ovr(SelectIPMIIP, "10.0.0.50", "kv/x")}, keys); got.VaultPath != def || got.Override != nil {
		t.Fatalf("no match must fall back to the default: %+v", got)
	}
}
