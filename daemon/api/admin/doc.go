// Package admin is the local admin HTTP API under /api/v1/admin/: MAAS
// sites and their credentials, site policy, power credential overrides,
// RoCE assignments, onboardings and their recovery actions, nodes, admin
// tokens and the audit log (seed 001 §3.4–§3.6, §4.1–§4.2, §4.15).
//
// Every route but the OpenAPI document needs a bearer token: viewers read,
// operators onboard and recover, admins manage sites, credentials and
// tokens. Errors are application/problem+json; every mutation is audited
// (operator recovery actions by the runner). Secrets go to the Vault
// writer and are never stored, logged, audited or answered.
//
// The package imports no adapter: Store, Runner, Secrets and Prober are
// the small interfaces it consumes, wired in daemon/cmd/maas-sidecar.
package admin
