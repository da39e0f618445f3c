package cli_test

import (
	"strings"

	"github.com/google/go-cmp/cmp"
)

// journalWriters is the BY column of the events table that a get command
// printed, one entry per event row.
func (d *daemon) journalWriters(stdout string) []string {
	d.t.Helper()
	var by []string
	in := false
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
			in = false
		case f[0] == "SEQ":
			if len(f) < 5 || f[4] != "BY" {
				d.t.Fatalf("events header %q has no BY column", l)
			}
			in = true
		case in:
			by = append(by, f[4])
		}
	}
	return by
}

// wantJournalBy checks that `KIND get ID` shows every event as written by
// the test daemon under its first lease, and that -o json is the API's
// JSON, holder and epoch included.
func (d *daemon) wantJournalBy(kind, id string) {
	d.t.Helper()
	r := d.cli("", kind, "get", id)
	if r.code != 0 {
		d.t.Fatalf("%s get: exit %d: %s", kind, r.code, r.stderr)
	}
	by := d.journalWriters(r.stdout)
	want := make([]string, len(by))
	for i := range want {
		want[i] = "test@1"
	}
	if diff := cmp.Diff(want, by); diff != "" || len(by) == 0 {
		d.t.Fatalf("%s get: BY column (-want +got):\n%s\n%s", kind, diff, r.stdout)
	}
	evs, _ := d.mustJSON(kind, "get", id)["events"].([]any)
	if len(evs) != len(by) {
		d.t.Fatalf("%s get -o json: %d events, table has %d", kind, len(evs), len(by))
	}
	first, _ := evs[0].(map[string]any)
	if first["holder"] != "test" || first["epoch"] != 1.0 {
		d.t.Fatalf("%s get -o json: first event %v, want holder test and epoch 1", kind, first)
	}
}
