//go:build integration

package notifyfwd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// The operations guide's "Watching the forwarder" documents exactly the
// metrics the forwarder registers, and its example alert rules load in
// promtool (Debian's prometheus package).
func TestDocumentedMetricsAndAlerts(t *testing.T) {
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "#### Watching the forwarder")
	end := strings.Index(doc[max(start, 0):], "\nThe `maas-sidecar` package ships the unit")
	if start < 0 || end < 0 {
		t.Fatal("docs/operations.md has no \"Watching the forwarder\" section")
	}
	section := doc[start : start+end]
	documented := slices.Compact(slices.Sorted(slices.Values(regexp.MustCompile(`maas_sidecar_notify_forward_[a-z_]+`).FindAllString(section, -1))))
	reg := prometheus.NewRegistry()
	NewMetrics(reg)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var registered []string
	for _, mf := range mfs {
		registered = append(registered, mf.GetName())
	}
	if !slices.Equal(documented, registered) {
		t.Errorf("documented metrics %v, registered %v", documented, registered)
	}
	_, rest, ok := strings.Cut(section, "```yaml\n")
	rules, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no example rules in the section")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install the Debian prometheus package (make test-deps)")
	}
	path := filepath.Join(t.TempDir(), "rules.yml")
	if err := os.WriteFile(path, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "check", "rules", path).CombinedOutput(); err != nil || !strings.Contains(string(out), "3 rules found") {
		t.Errorf("promtool check rules: %v\n%s", err, out)
	}
}
