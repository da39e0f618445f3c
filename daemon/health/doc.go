// Package health judges a node's health between turnovers from its
// agent's passive readings (agent/wire.HealthReport) and from the faults
// the GPU cloud reports, under the site's policy (lifecycle.HealthPolicy):
// a verdict per check (healthy, degraded, critical, unknown) with its
// reason and recommended action, the node's verdict the worst of them.
//
// The Service keeps the verdict with its history in the store and acts
// on it: a critical verdict or a quarantining fault moves an active node
// to quarantined, tells the GPU cloud through the outbox and asks the
// Repairer for a repair run; a degraded verdict marks the node so its
// next turnover's DCGM diagnostic runs a level deeper; a node whose
// reports stop turns unknown after the policy's number of intervals.
package health
