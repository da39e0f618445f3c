// Package guardrails checks the codebase's own rules, run by `go test ./...`:
// every package has a package doc comment, and the import rules of the
// layout hold (the domain imports only the standard library, adapters never
// import each other, the core never imports an adapter, the agent never
// imports the daemon). The rules are the table in rules.go. clock.go keeps
// one clock: no package declares a Clock interface (time is a
// clockwork.Clock), and the packages of WallClockFree (the runner,
// workflows, feed, reconciler, MAAS client, APIs, agent...) never read or
// wait on the wall clock outside their tests. release.go holds
// each shipped binary's release build (make deb's tags) to an allowlist of
// the module's packages it may link (release/<binary>.txt): no simulator,
// dev mode, pgcluster, pgtest, end-to-end or test support, and of the
// agent only its wire package in the daemon.
package guardrails
