//go:build integration

package metrics_test

import (
	"os/exec"
	"testing"
)

// The alert rules parse (promtool check rules) and every rule behaves as
// its unit tests say (promtool test rules). promtool comes from Debian's
// prometheus package (hack/apt-packages.txt); without it this test fails.
func TestAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install the Debian prometheus package (make test-deps)")
	}
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts_test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = "../../deb/prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("promtool %v: %v\n%s", args, err, out)
		}
	}
}
