// Package runner is the durable stage runner that replaces the seed's
// Temporal: it drives onboarding and decommission runs stage by stage and
// survives crashes without repeating side effects.
//
// The contract, in short:
//   - Record before acting. "Stage S attempt N started" is committed before
//     S runs; the outcome is committed after, together with the next step.
//     After a restart every running run re-enters its recorded stage, and
//     stages refresh observed state and adopt what already happened.
//   - Waiting costs nothing. A stage that waits parks its run with a
//     deadline and wake keys; a parked run holds no goroutine. Wake(key)
//     (the change feed, the agent API) or the deadline resumes it.
//   - Queue, never reject. Per site at most batch_max_parallel runs are
//     admitted, one per BMC; the rest wait in request order.
//   - Ownership. The runner drives a site's runs only while it holds the
//     site lease; every journal write is fenced by the lease epoch.
//   - Operator actions (retry_stage, resume, rerun, restart_clean, cancel,
//     adopt_observed_state, mark_manual_intervention_required) are
//     distinct, idempotent and audited.
package runner
