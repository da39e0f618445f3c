// Package maas is the sidecar's client of the MAAS REST API 2.0: OAuth 1.0
// PLAINTEXT signing with a fresh nonce and timestamp per request, the
// calls the onboarding and decommission workflows and the change feed
// need, and the one translation of MAAS JSON into the domain's MAAS view
// (lifecycle.Machine, Disk, NIC, Subnet, MachineToken, MaasEvent) at the
// edge. *Client satisfies the MAAS ports the workflows and the change feed
// declare; Sites opens a site's client with its API key read from the
// secret store at the moment of use.
//
// Every error is a *lifecycle.Error: 400 -> invalid (with MAAS's field
// map), 401 -> unauthorized, 403 -> forbidden, 404 -> not_found, 409 ->
// conflict carrying MAAS's text, 5xx, timeouts and connection failures ->
// unavailable (retryable). Only idempotent reads are retried. No part of
// the API key ever appears in an error or a log line. An answer that is
// not the JSON expected, or longer than 256 MiB, is internal.
//
// The machine list is decoded as its body arrives, through one window
// (jstream.go), by a reader as strict as encoding/json that decodes only
// the fields the daemon reads; other answers are read whole, then
// decoded with encoding/json.
//
// It imports only daemon/lifecycle and the standard library.
package maas
