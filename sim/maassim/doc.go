// Package maassim is an in-process simulator of the MAAS 3.6 REST API 2.0
// (/MAAS/api/2.0/...), strict enough that tests written against it fail
// where real MAAS would refuse: OAuth 1.0 PLAINTEXT with nonce replay and
// stale-timestamp checks, op dispatch from the query, the form body or the
// /op-<name> path, MAAS's 400/401/403/404/409 texts, and a per-machine
// status machine that follows MAAS's NODE_TRANSITIONS table.
//
// Durations (commissioning, deploying, releasing, disk erasing by erase
// method, discovery) are scaled by a speed factor and measured on an injected clock, so tests
// drive a whole lifecycle with a fake clock in milliseconds. Power is
// coupled to a BMC through the small BMC interface; MemBMC is the default.
//
// Release with erase follows MAAS 3.6: Disk erasing with the machine
// powered on, then Releasing, powered off, and Ready; a failed erase ends
// in Failed disk erasing, from which only a new release (with or without
// erase) leads out.
//
// machines/?op=allocate takes a Ready machine for the caller with MAAS's
// constraints and refusals (docs/maas-simulator-allocate.md).
//
// Faults (error rate, latency, timeouts and held answers per op,
// commissioning, deployment and disk-erase failures, missing boot disk,
// unlinked PXE NIC, out-of-band changes, slow or dead BMCs) are programmable from Go and over the /_sim/
// control routes, and a webhook emitter POSTs signed change hints.
//
// MirrorPostgres keeps a real PostgreSQL database in step with the
// machines, as MAAS's region database (maasserver_node, maasserver_event
// and MAAS's notification triggers for machines, devices and controllers),
// so PostgreSQL itself sends the machine_*, device_*, controller_* and
// event_create notifications a MAAS region sends (docs/maas-notify.md).
package maassim
