package secrets

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var testNode = NodeKeys{PXEMAC: "aa:bb:cc:dd:ee:01", IPMIIP: "10.1.2.3", Hostname: "c07u31"}

// override returns an override of the given selector that matches testNode
// (or does not), active or not.
func override(by SelectorType, matching, active bool) Override {
	value := map[SelectorType]string{ByPXEMAC: testNode.PXEMAC, ByIPMIIP: testNode.IPMIIP, ByHostname: testNode.Hostname}[by]
	if !matching {
		value = map[SelectorType]string{ByPXEMAC: "aa:bb:cc:dd:ee:99", ByIPMIIP: "10.1.2.99", ByHostname: "c07u99"}[by]
	}
	id := fmt.Sprintf("%s-match=%v-active=%v", by, matching, active)
	return Override{ID: id, Selector: by, Value: value, VaultPath: "kv/maas-sites/s1/power/overrides/" + id, Active: active}
}

// TestSelectionOrderEveryCombination builds every combination of selectors
// with an active matching override, adds decoys (inactive or non-matching
// overrides) for the others, and expects the first of pxe_mac, ipmi_ip,
// hostname that matches, else the site default, whatever the list order.
func TestSelectionOrderEveryCombination(t *testing.T) {
	decoys := map[string]func(SelectorType) []Override{
		"no decoys":        func(SelectorType) []Override { return nil },
		"inactive matches": func(by SelectorType) []Override { return []Override{override(by, true, false)} },
		"active misses":    func(by SelectorType) []Override { return []Override{override(by, false, true)} },
	}
	for mask := range 8 {
		for decoyName, decoy := range decoys {
			var list []Override
			want := Selection{VaultPath: PowerDefaultPath("s1")}
			for i, by := range selectionOrder {
				if mask&(1<<i) == 0 {
					list = append(list, decoy(by)...)
					continue
				}
				o := override(by, true, true)
				list = append(list, o)
				if want.By == "" {
					want = Selection{VaultPath: o.VaultPath, OverrideID: o.ID, By: by}
				}
			}
			for _, order := range []string{"forward", "reversed"} {
				if order == "reversed" {
					slices.Reverse(list)
				}
				t.Run(fmt.Sprintf("%03b/%s/%s", mask, decoyName, order), func(t *testing.T) {
					got := SelectPowerCredentials(PowerDefaultPath("s1"), list, testNode)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("selection (-want +got):\n%s", diff)
					}
				})
			}
		}
	}
}

func TestSelectionMatchesByValue(t *testing.T) {
	tests := []struct {
		name  string
		o     Override
		node  NodeKeys
		match bool
	}{
		{"mac case and separators", Override{Selector: ByPXEMAC, Value: "AA-BB-CC-DD-EE-01"}, testNode, true},
		{"ipv4-mapped ipv6", Override{Selector: ByIPMIIP, Value: "::ffff:10.1.2.3"}, testNode, true},
		{"hostname case and root dot", Override{Selector: ByHostname, Value: "C07U31."}, testNode, true},
		{"hostname is not a prefix", Override{Selector: ByHostname, Value: "c07u3"}, testNode, false},
		{"empty node key matches nothing", Override{Selector: ByHostname, Value: ""}, NodeKeys{}, false},
		{"selector must agree", Override{Selector: ByHostname, Value: "10.1.2.3"}, testNode, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Active, tt.o.VaultPath = true, "kv/o"
			got := SelectPowerCredentials("kv/default", []Override{tt.o}, tt.node).VaultPath == "kv/o"
			if got != tt.match {
				t.Errorf("matched = %v, want %v", got, tt.match)
			}
		})
	}
}
