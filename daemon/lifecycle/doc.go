// Package lifecycle is the domain of maas-sidecar: node lifecycle states and
// their owned transitions, run (job) states, the onboarding and decommission
// stage catalogs, failure classes, operator actions, the MAAS node status
// enum, the store contract and the single Error type every layer returns;
// the MAAS view the core reasons about (Machine, Disk, NIC, Subnet, ...),
// which the MAAS adapter returns directly; and Secret, the redacting type
// every secret travels as.
//
// It imports only the standard library. Adapters (bbolt, MAAS, Vault, bmclib)
// translate their own types into these at their edge.
package lifecycle
