// Command benchtable reads `go test -bench` output on stdin, copies it to
// stdout as it comes, and prints at the end one table of the project's
// performance measures (docs/benchmarks.md, DESIGN.md §12): measure,
// target, now, ratio (now over target) and whether the target is met.
// Each measure is one benchmark's custom metric (b.ReportMetric), named in
// measures.go; a measure whose benchmark did not run prints "not run".
// It exits 1 when the input reports a failure (a FAIL line), so that
// `go test ... | benchtable` fails as go test did.
//
//	go test -run '^$' -bench . ./... 2>&1 | tee bench.out | go run ./hack/benchtable
package main
