// Package bridge adapts the adapters (MAAS client, cloud-init renderer,
// Vault, BMC power, PKI) to the ports the core declares (daemon/workflow),
// translating types at the edge. It holds no logic of its own; the daemon
// command wires through it, and the workflow tests use it to run against
// the real clients and simulators.
package bridge
