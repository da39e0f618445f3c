package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTable runs the tool on recorded `go test -bench` output: the input
// comes through whole, and every measure shows its median (three ingest
// runs) beside its same-run baseline, against its target (twice the
// baseline for dqlite's).
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
	table := squeeze(strings.TrimPrefix(out.String(), string(in)))
	for _, want := range []string{
		"measure target now same-run baseline ratio met",
		"webhook ingest, 32 senders ≥ 20,000 events/s 2,877 events/s bbolt batched puts: 2,090 events/s 0.14 no",
		"webhook ingest p99 to 202 ≤ 20.0 ms 49.3 ms empty handler p99: 11.0 ms 2.46 no",
		"webhook ingest, batches of 50 ≥ 20,000 events/s 9,200 events/s empty handler, requests: 4,100 events/s 0.46 no",
		"reconcile pass, 5,000 machines ≤ 500 ms 1,967 ms per-node: 15,467 ms 3.93 no",
		"MAAS list decode, 5,000 machines ≤ 150 ms 502 ms encoding/json: 3,448 ms 3.34 no",
		"MAAS list allocation, 5,000 machines ≤ 60.0 MB 12.4 MB body read whole: 140 MB 0.21 yes",
		"onboarding, 1,000 live runs (bbolt) ≤ 1,000 µs/transition 7,379 µs/transition - 7.38 no",
		"onboarding, 1,000 live runs (dqlite, 3 nodes) ≤ 2× bbolt 14,145 µs/transition bbolt: 7,379 µs/transition 0.96 yes",
		"onboarding RSS (dqlite, 3 nodes) ≤ 2× bbolt 914 MiB bbolt: 604 MiB 0.76 yes",
		"daemon RSS, 10,000 queued (1,000 active) ≤ 200 MB 164 MB idle: 29.6 MB 0.82 yes",
		"agent RSS, enrolled, 1,000 idle polls ≤ 16.0 MiB 13.6 MiB - 0.85 yes",
		"agent RSS, health watch on (8 GPUs, a pass a second) ≤ 16.0 MiB 14.2 MiB watch off: 13.6 MiB 0.89 yes",
		"drift latency p99, LISTEN ≤ 1,000 ms 233 ms events cursor, 1 s poll: 1,055 ms 0.23 yes",
		"drift latency p99, webhook ≤ 1,000 ms 312 ms events cursor, 1 s poll: 1,055 ms 0.31 yes",
		"soft reset, daemon's own time, 100 at once ≤ 0.50 s/run 5.88 s/run run's wall time: 5.88 s/run 11.76 no",
		"reimage, daemon's own time, 100 at once ≤ 2.00 s/run 22.7 s/run MAAS's own time: 0.39 s/run 11.37 no",
		"node list page p99, 100,000 nodes ≤ 50.0 ms 7.10 ms full list: 142 ms 0.14 yes",
		"run list page p99, 100,000 runs ≤ 50.0 ms 8.80 ms full list: 179 ms 0.18 yes",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "not run"); n != 0 {
		t.Errorf("%d figures not run, want every measure and baseline:\n%s", n, table)
	}
}

// squeeze is s with each run of spaces as one.
func squeeze(s string) string {
	var out string
	for _, l := range strings.Split(s, "\n") {
		out += strings.Join(strings.Fields(l), " ") + "\n"
	}
	return out
}

// A measure or baseline that did not run says so; a relative target
// without its baseline is not judged.
func TestNotRun(t *testing.T) {
	var out bytes.Buffer
	if _, err := run(strings.NewReader("BenchmarkOnboard1000/dqlite3_leader-2  1  5 ns/op  900 us/transition\n"), &out); err != nil {
		t.Fatal(err)
	}
	table := squeeze(out.String())
	for _, want := range []string{
		"onboarding, 1,000 live runs (dqlite, 3 nodes) ≤ 2× bbolt 900 µs/transition bbolt: not run - -",
		"agent RSS, enrolled, 1,000 idle polls ≤ 16.0 MiB not run - - -",
		"MAAS list allocation, 5,000 machines ≤ 60.0 MB not run body read whole: not run - -",
	} {
		if !strings.Contains(table, want+"\n") {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
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
	r.add("BenchmarkOnboard1000/bolt-2   1   5000 ns/op   400 us/transition")
	r.add("BenchmarkOnboard1000/dqlite3_leader-2   1   5000 ns/op   900 us/transition")
	got := map[string]string{}
	for _, w := range rows(r) {
		got[w.measure] = w.now + " " + w.ratio + " " + w.met
	}
	for name, want := range map[string]string{
		"daemon RSS, 10,000 queued (1,000 active)":      "150 MB 0.75 yes",
		"webhook ingest, 32 senders":                    "25,000 events/s 1.25 yes",
		"onboarding, 1,000 live runs (dqlite, 3 nodes)": "900 µs/transition 1.12 no",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
}
