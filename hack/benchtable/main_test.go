package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTable runs the tool on recorded `go test -bench` output: the input
// comes through whole, each measure that ran shows its median (three
// ingest runs) against its target, the others "not run".
func TestTable(t *testing.T) {
	in, err := os.ReadFile("testdata/bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	failed, err := run(bytes.NewReader(in), &out)
	if err != nil || failed {
		t.Fatalf("run: failed %v, %v", failed, err)
	}
	if !strings.HasPrefix(out.String(), string(in)) {
		t.Errorf("the input was not copied through first")
	}
	var table string // the table with runs of spaces as one
	for _, l := range strings.Split(strings.TrimPrefix(out.String(), string(in)), "\n") {
		table += strings.Join(strings.Fields(l), " ") + "\n"
	}
	for _, want := range []string{
		"webhook ingest, 32 senders ≥ 20,000 events/s 2,877 events/s 0.14 no",
		"webhook ingest p99 to 202 ≤ 20.0 ms 49.3 ms 2.46 no",
		"reconcile pass, 5,000 machines ≤ 500 ms 2,260 ms 4.52 no",
		"MAAS list decode, 5,000 machines ≤ 150 ms not run - -",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "not run"); n != len(measures)-3 {
		t.Errorf("%d measures not run, want %d:\n%s", n, len(measures)-3, table)
	}
}

// TestFailure: a failed benchmark in the input makes the tool report it.
func TestFailure(t *testing.T) {
	in := "BenchmarkWebhookIngest-2\n--- FAIL: BenchmarkWebhookIngest-2\n    bench_test.go:50: 503\nFAIL\n"
	failed, err := run(strings.NewReader(in), &bytes.Buffer{})
	if err != nil || !failed {
		t.Fatalf("failed %v, err %v; want a failure", failed, err)
	}
}

// TestMet: a measure within its target says so, at both kinds of bound.
func TestMet(t *testing.T) {
	r := results{}
	r.add("BenchmarkDaemonRSS-2   1   5000 ns/op   150.5 rss_MB   0.75 ratio_rss_target")
	r.add("BenchmarkWebhookIngest-16   1   5000 ns/op   25000 events/s")
	got := map[string]string{}
	for _, w := range rows(r) {
		got[w.measure] = w.now + " " + w.ratio + " " + w.met
	}
	if g := got[measures[6].Name]; g != "150 MB 0.75 yes" {
		t.Errorf("rss: %q", g)
	}
	if g := got[measures[0].Name]; g != "25,000 events/s 1.25 yes" {
		t.Errorf("ingest: %q", g)
	}
}
