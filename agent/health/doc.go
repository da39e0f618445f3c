// Package health is the agent's passive health watch: every interval it
// reads, without touching the tenant's work, what the daemon needs to
// judge a node between turnovers, and reports it as a wire.HealthReport
// over the agent's mutual-TLS client (wire.HealthPath).
//
// A pass reads the kernel log's Xid events since the previous pass
// (journalctl -k from the last cursor, the whole boot on the first pass;
// /var/log/kern.log from the last offset on a host without journald),
// each vendor tool's GPU readings (ECC volatile and aggregate, retired
// pages, remapped rows and pending remaps, clock event reasons, PCIe
// width and generation, NVLink state and errors) through agent/task/gpu's
// readers, and the GPUs on the PCI bus by vendor id under the host root.
// It runs queries only: no reset, no diagnostic, no settings change. A
// reading that fails is named in the report's Unreadable with its reason;
// the vendor tools are not run while a task (a scrub) is running.
//
// Reports go out only while the agent is enrolled. The agent gives no
// verdict. A report the daemon does not accept (any
// answer but 2xx, or no answer) is not sent again: the next pass sends a
// new one, which carries every Xid event not yet accepted.
package health
