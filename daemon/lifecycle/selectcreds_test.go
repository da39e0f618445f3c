package lifecycle

import (
	"fmt"
	"slices"
	"testing"
)

const defaultPath = "kv/maas-sites/s1/power/default"

var testKeys = NodeKeys{PXEMac: "aa:bb:cc:dd:ee:01", IPMIIP: "10.1.2.3", Hostname: "c07u31"}

// override returns an override of selector by that matches testKeys (or
// does not), active or not.
func override(by SelectorType, matching, active bool) PowerOverride {
	value := map[SelectorType]string{SelectPXEMac: testKeys.PXEMac, SelectIPMIIP: testKeys.IPMIIP, SelectHostname: testKeys.Hostname}[by]
	if !matching {
		value = map[SelectorType]string{SelectPXEMac: "aa:bb:cc:dd:ee:99", SelectIPMIIP: "10.1.2.99", SelectHostname: "c07u99"}[by]
	}
	id := fmt.Sprintf("%s-match=%v-active=%v", by, matching, active)
	status := "inactive"
	if active {
		status = "active"
	}
	return PowerOverride{ID: id, SelectorType: by, SelectorValue: value, VaultPath: "kv/maas-sites/s1/power/overrides/" + id, Status: status}
}

// TestSelectionOrderEveryCombination builds every combination of selectors
// with an active matching override, adds decoys (inactive or non-matching
// overrides) for the others, and expects the first of pxe_mac, ipmi_ip,
// hostname that matches, else the site default, whatever the list order.
func TestSelectionOrderEveryCombination(t *testing.T) {
	decoys := map[string]func(SelectorType) []PowerOverride{
		"no decoys":        func(SelectorType) []PowerOverride { return nil },
		"inactive matches": func(by SelectorType) []PowerOverride { return []PowerOverride{override(by, true, false)} },
		"active misses":    func(by SelectorType) []PowerOverride { return []PowerOverride{override(by, false, true)} },
	}
	for mask := range 8 {
		for decoyName, decoy := range decoys {
			var list []PowerOverride
			want, wantID := defaultPath, ""
			for i, by := range SelectorOrder {
				if mask&(1<<i) == 0 {
					list = append(list, decoy(by)...)
					continue
				}
				o := override(by, true, true)
				list = append(list, o)
				if wantID == "" {
					want, wantID = o.VaultPath, o.ID
				}
			}
			for _, order := range []string{"forward", "reversed"} {
				if order == "reversed" {
					slices.Reverse(list)
				}
				t.Run(fmt.Sprintf("%03b/%s/%s", mask, decoyName, order), func(t *testing.T) {
					got := SelectPowerCredentials(defaultPath, list, testKeys)
					gotID := ""
					if got.Override != nil {
						gotID = got.Override.ID
					}
					if got.VaultPath != want || gotID != wantID {
						t.Errorf("selection = %s (%q), want %s (%q)", got.VaultPath, gotID, want, wantID)
					}
				})
			}
		}
	}
}

func TestSelectionMatchesByValue(t *testing.T) {
	tests := []struct {
		name  string
		by    SelectorType
		value string
		keys  NodeKeys
		match bool
	}{
		{"mac case and separators", SelectPXEMac, "AA-BB-CC-DD-EE-01", testKeys, true},
		{"ipv4-mapped ipv6", SelectIPMIIP, "::ffff:10.1.2.3", testKeys, true},
		{"hostname case and root dot", SelectHostname, "C07U31.", testKeys, true},
		{"hostname is not a prefix", SelectHostname, "c07u3", testKeys, false},
		{"empty node key matches nothing", SelectHostname, "", NodeKeys{}, false},
		{"selector must agree", SelectHostname, "10.1.2.3", testKeys, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := PowerOverride{SelectorType: tt.by, SelectorValue: tt.value, VaultPath: "kv/o", Status: "active"}
			got := SelectPowerCredentials("kv/default", []PowerOverride{o}, tt.keys).VaultPath == "kv/o"
			if got != tt.match {
				t.Errorf("matched = %v, want %v", got, tt.match)
			}
		})
	}
}
