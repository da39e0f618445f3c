package main

// measure is one row of the table: the benchmark (its full name without
// the -GOMAXPROCS suffix, sub-benchmarks after a slash) and the unit of
// the metric it reports, scaled by Scale (0 is 1) into Show units, against
// a target that is an upper bound (AtMost) or a lower one.
type measure struct {
	Name   string
	Bench  string
	Unit   string
	Scale  float64
	Show   string
	Target float64
	AtMost bool
}

// measures are the targets, in the order they print. Renaming a
// benchmark or a metric means changing its row here, nothing else.
var measures = []measure{
	{Name: "webhook ingest, 32 senders", Bench: "BenchmarkWebhookIngest", Unit: "events/s", Show: "events/s", Target: 20000},
	{Name: "webhook ingest p99 to 202", Bench: "BenchmarkWebhookIngest", Unit: "p99_ack_ms", Show: "ms", Target: 20, AtMost: true},
	{Name: "reconcile pass, 5,000 machines", Bench: "BenchmarkReconcilePass5000", Unit: "ns/op", Scale: 1e-6, Show: "ms", Target: 500, AtMost: true},
	{Name: "MAAS list decode, 5,000 machines", Bench: "BenchmarkMachineListDecode/decode", Unit: "ms/list", Show: "ms", Target: 150, AtMost: true},
	{Name: "MAAS list decode allocation", Bench: "BenchmarkMachineListDecode/decode", Unit: "MB/list", Show: "MB", Target: 60, AtMost: true},
	{Name: "onboarding, 1,000 live runs (bbolt)", Bench: "BenchmarkOnboard1000/bolt", Unit: "us/transition", Show: "µs/transition", Target: 1000, AtMost: true},
	{Name: "daemon RSS, 10,000 queued (1,000 active)", Bench: "BenchmarkDaemonRSS", Unit: "rss_MB", Show: "MB", Target: 200, AtMost: true},
	{Name: "node list page p99, 100,000 nodes", Bench: "BenchmarkListPages/nodes_by_site", Unit: "page_p99_ms", Show: "ms", Target: 50, AtMost: true},
	{Name: "run list page p99, 100,000 runs", Bench: "BenchmarkListPages/runs_by_site_status", Unit: "page_p99_ms", Show: "ms", Target: 50, AtMost: true},
}
