// Package secrets reads and writes the daemon's secrets: the MAAS API token,
// the site's default and per-node power credentials, and the deploy
// password. Vault (KV version 2) is the backend; Memory is a stand-in that
// only dev mode may use.
//
// Secrets are read at the moment of use and never cached, so a rotated
// value applies to the next read without a restart. Power credentials are
// chosen by the site's overrides in a fixed order: pxe_mac, ipmi_ip,
// hostname, then the site default.
//
// Every error is a *lifecycle.Error: CodeUnavailable (retryable) when Vault
// is down, sealed or slow, CodeNotFound for a missing secret or field,
// CodeForbidden when the token may not touch the path, CodeUnauthorized
// when Vault refuses the login, CodeInvalid for bad input or configuration,
// CodeInternal otherwise. No secret value ever appears in an error, a log
// record or a metric; values travel as Secret, which prints redacted.
package secrets
