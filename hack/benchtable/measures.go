package main

// measure is one row of the table: the benchmark (its full name without
// the -GOMAXPROCS suffix, sub-benchmarks after a slash) and the unit of
// the metric it reports, scaled by Scale (0 is 1) into Show units, against
// a target that is an upper bound (AtMost) or a lower one. Base, when it
// names a benchmark, is the figure measured beside it in the same run.
type measure struct {
	Name   string
	Bench  string
	Unit   string
	Scale  float64
	Show   string
	Target float64
	AtMost bool
	Base   baseline
}

// baseline is a same-run figure printed beside a measure: Bench's Unit,
// scaled and shown as the measure's, called Name. With Relative, the
// measure's target is Target times the baseline's figure (dqlite within
// 2× bbolt), so it is known only when the baseline ran.
type baseline struct {
	Name     string
	Bench    string
	Unit     string
	Relative bool
}

// measures are the targets, in the order they print. Renaming a
// benchmark or a metric means changing its row here, nothing else.
var measures = []measure{
	{Name: "webhook ingest, 32 senders", Bench: "BenchmarkWebhookIngest", Unit: "events/s", Show: "events/s", Target: 20000,
		Base: baseline{Name: "bbolt batched puts", Bench: "BenchmarkWebhookIngest", Unit: "bbolt_batch_puts/s"}},
	{Name: "webhook ingest p99 to 202", Bench: "BenchmarkWebhookIngest", Unit: "p99_ack_ms", Show: "ms", Target: 20, AtMost: true,
		Base: baseline{Name: "empty handler p99", Bench: "BenchmarkWebhookIngest", Unit: "empty_handler_p99_ms"}},
	{Name: "webhook ingest, batches of 50", Bench: "BenchmarkWebhookIngest", Unit: "batched_events/s", Show: "events/s", Target: 20000,
		Base: baseline{Name: "empty handler, requests", Bench: "BenchmarkWebhookIngest", Unit: "empty_handler_req/s"}},
	{Name: "reconcile pass, 5,000 machines", Bench: "BenchmarkReconcilePass5000", Unit: "ms/pass", Show: "ms", Target: 500, AtMost: true,
		Base: baseline{Name: "per-node", Bench: "BenchmarkReconcilePass5000", Unit: "baseline_ms/pass"}},
	{Name: "MAAS list decode, 5,000 machines", Bench: "BenchmarkMachineListDecode/decode", Unit: "ms/list", Show: "ms", Target: 150, AtMost: true,
		Base: baseline{Name: "encoding/json", Bench: "BenchmarkMachineListDecode/decode_encoding_json", Unit: "ms/list"}},
	{Name: "MAAS list allocation, 5,000 machines", Bench: "BenchmarkMachineListDecode/client", Unit: "MB/list", Show: "MB", Target: 60, AtMost: true,
		Base: baseline{Name: "body read whole", Bench: "BenchmarkMachineListDecode/client_read_whole", Unit: "MB/list"}},
	{Name: "onboarding, 1,000 live runs (bbolt)", Bench: "BenchmarkOnboard1000/bolt", Unit: "us/transition", Show: "µs/transition", Target: 1000, AtMost: true},
	{Name: "onboarding, 1,000 live runs (dqlite, 3 nodes)", Bench: "BenchmarkOnboard1000/dqlite3_leader", Unit: "us/transition", Show: "µs/transition",
		Target: 2, AtMost: true, Base: baseline{Name: "bbolt", Bench: "BenchmarkOnboard1000/bolt", Unit: "us/transition", Relative: true}},
	{Name: "onboarding RSS (dqlite, 3 nodes)", Bench: "BenchmarkOnboard1000/dqlite3_leader", Unit: "rss_MiB", Show: "MiB",
		Target: 2, AtMost: true, Base: baseline{Name: "bbolt", Bench: "BenchmarkOnboard1000/bolt", Unit: "rss_MiB", Relative: true}},
	{Name: "daemon RSS, 10,000 queued (1,000 active)", Bench: "BenchmarkDaemonRSS", Unit: "rss_MB", Show: "MB", Target: 200, AtMost: true,
		Base: baseline{Name: "idle", Bench: "BenchmarkDaemonRSS", Unit: "idle_rss_MB"}},
	{Name: "agent RSS, enrolled, 1,000 idle polls", Bench: "BenchmarkAgentIdleRSS/watch=off", Unit: "VmRSS-KiB", Scale: 1.0 / 1024, Show: "MiB",
		Target: 16, AtMost: true},
	{Name: "agent RSS, health watch on (8 GPUs, a pass a second)", Bench: "BenchmarkAgentIdleRSS/watch=on", Unit: "VmRSS-KiB", Scale: 1.0 / 1024,
		Show: "MiB", Target: 16, AtMost: true,
		Base: baseline{Name: "watch off", Bench: "BenchmarkAgentIdleRSS/watch=off", Unit: "VmRSS-KiB"}},
	{Name: "drift latency p99, LISTEN", Bench: "BenchmarkDriftLatency/listen", Unit: "p99_ms", Show: "ms", Target: 1000, AtMost: true,
		Base: baseline{Name: "events cursor, 1 s poll", Bench: "BenchmarkDriftLatency/cursor", Unit: "p99_ms"}},
	{Name: "drift latency p99, webhook", Bench: "BenchmarkDriftLatency/webhook", Unit: "p99_ms", Show: "ms", Target: 1000, AtMost: true,
		Base: baseline{Name: "events cursor, 1 s poll", Bench: "BenchmarkDriftLatency/cursor", Unit: "p99_ms"}},
	{Name: "soft reset, daemon's own time, 100 at once", Bench: "BenchmarkTurnover100/soft_reset", Unit: "daemon_s/run", Show: "s/run", Target: 0.5, AtMost: true,
		Base: baseline{Name: "run's wall time", Bench: "BenchmarkTurnover100/soft_reset", Unit: "wall_s/run"}},
	{Name: "reimage, daemon's own time, 100 at once", Bench: "BenchmarkTurnover100/reimage", Unit: "daemon_s/run", Show: "s/run", Target: 2, AtMost: true,
		Base: baseline{Name: "MAAS's own time", Bench: "BenchmarkTurnover100/reimage", Unit: "maas_s/run"}},
	{Name: "node list page p99, 100,000 nodes", Bench: "BenchmarkListPages/nodes_by_site", Unit: "page_p99_ms", Show: "ms", Target: 50, AtMost: true,
		Base: baseline{Name: "full list", Bench: "BenchmarkListPages/nodes_by_site", Unit: "full_list_ms"}},
	{Name: "run list page p99, 100,000 runs", Bench: "BenchmarkListPages/runs_by_site_status", Unit: "page_p99_ms", Show: "ms", Target: 50, AtMost: true,
		Base: baseline{Name: "full list", Bench: "BenchmarkListPages/runs_by_site_status", Unit: "full_list_ms"}},
}
