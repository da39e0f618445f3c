// Package guardrails checks the codebase's own rules, run by `go test ./...`:
// every package has a package doc comment, and the import rules of the
// layout hold (the domain imports only the standard library, adapters never
// import each other, the core never imports an adapter, the agent never
// imports the daemon). The rules are the table in rules.go. clock.go keeps
// one clock: no package declares a Clock interface (time is a
// clockwork.Clock), and the runner, workflows, feed and reconciler never
// read or wait on the wall clock outside their tests.
package guardrails
