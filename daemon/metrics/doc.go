// Package metrics holds the daemon-wide Prometheus metrics that belong to
// no single part: the runner's stage durations and failure classes (fed by
// the runner's observer hook) and the store's commit latency. The feed,
// the reconciler and the adapters keep their own metrics beside their code.
package metrics
