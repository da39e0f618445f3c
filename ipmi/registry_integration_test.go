//go:build integration

package ipmi

import (
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRegistryHoldsOnlyConfiguredProviders: bmclib registers seven
// providers by default and probes them all; the client keeps only the
// configured ones, in the configured order.
func TestRegistryHoldsOnlyConfiguredProviders(t *testing.T) {
	ipmitool, err := exec.LookPath("ipmitool")
	if err != nil {
		t.Fatal("ipmitool is required by this integration test: install the Debian package ipmitool (make test-deps)")
	}
	tests := [][]string{
		{ProviderIPMITool},
		{ProviderIPMITool, ProviderRedfish},
		{ProviderRedfish, ProviderIPMITool},
	}
	for _, providers := range tests {
		c := &Client{cfg: Config{Providers: providers, IPMIToolPath: ipmitool}.Defaults()}
		var got []string
		for _, d := range c.bmclib(Target{Host: "10.0.0.1"}).Registry.Drivers {
			got = append(got, d.Name)
		}
		if diff := cmp.Diff(providers, got); diff != "" {
			t.Errorf("registry for %v (-want +got):\n%s", providers, diff)
		}
	}
}
