// Package workflow holds the lifecycle workflows the runner drives: the
// MAAS onboarding of seed 001 §4.3 stage by stage, and the decommissions
// of seed 001 §5 (soft reset, reimage, full decommission, storage
// cleanup), which wait on agent tasks and publish lifecycle events.
//
// Stages talk to the outside world only through small ports declared
// where they are used (one per MAAS stage family, and Vault, BMC power,
// the bootstrap renderer, enrollment tokens, see ports.go); the adapters
// satisfy them directly, on the domain's types, and daemon/cmd wires them. Every stage
// refreshes observed MAAS state before it acts and adopts progress that
// already happened, so the runner can re-enter any stage after a crash.
// Secrets are read at the moment of use and never kept in run variables,
// events or errors.
package workflow
