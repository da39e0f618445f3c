package admin

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
)

// TestRunRoutesFromOneTable: under every kind's collection the admin API
// serves exactly the run route table (list, get, the seven recovery
// actions, with their roles) plus that kind's own start routes, so a
// route added to the table reaches every kind and no kind has a run
// route written apart.
func TestRunRoutesFromOneTable(t *testing.T) {
	own := map[string][]string{"onboarding": {"POST  operator", "POST /batch operator"}, "repair": {"GET /{id}/rma viewer"}}
	want := []string{"GET  viewer", "GET /{id} viewer"}
	for _, rc := range answer.Recoveries {
		want = append(want, "POST /{id}/"+rc.Path+" operator")
	}
	if len(runKinds) != len(answer.RunKinds) {
		t.Fatalf("%d kinds have routes, %d kinds of run exist", len(runKinds), len(answer.RunKinds))
	}
	all := New(Config{}).routes()
	for _, k := range answer.RunKinds {
		base := Prefix + "/" + k.Collection
		var got []string
		for _, rt := range all {
			rest, ok := strings.CutPrefix(rt.path, base)
			if !ok || (rest != "" && rest[0] != '/') {
				continue
			}
			op := rt.method + " " + rest + " " + string(rt.role)
			if !slices.Contains(own[k.Name], op) {
				got = append(got, op)
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s routes:\n%v\nwant the run table:\n%v", k.Name, got, want)
		}
	}
}
