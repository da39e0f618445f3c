package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
)

// TestRunVerbsFromOneTable: the commands of every kind of run are the
// run verb table made for that kind (plus the kind's own start and batch
// verbs, listed here), so a verb added to the table reaches every kind
// and no kind has a run verb written apart.
func TestRunVerbsFromOneTable(t *testing.T) {
	own := map[string][]string{"onboarding": {"batches"}, "repair": {"start", "rma"}}
	var table []string
	for _, v := range runVerbs() {
		table = append(table, v.name)
	}
	want := []string{"get", "list", "watch", "retry", "resume", "rerun", "restart-clean", "cancel", "adopt", "mark-manual-intervention"}
	if !slices.Equal(table, want) {
		t.Fatalf("run verbs %v, want %v", table, want)
	}
	if len(runKinds) != len(answer.RunKinds) {
		t.Fatalf("%d kinds have run verbs, the API has %d", len(runKinds), len(answer.RunKinds))
	}
	for _, k := range answer.RunKinds {
		var got []string
		for name := range commands {
			if verb, ok := strings.CutPrefix(name, k.Name+" "); ok && !slices.Contains(own[k.Name], verb) {
				got = append(got, verb)
			}
		}
		slices.Sort(got)
		w := slices.Sorted(slices.Values(table))
		if !slices.Equal(got, w) {
			t.Errorf("%s verbs %v, want the table's %v", k.Name, got, w)
		}
	}
}
