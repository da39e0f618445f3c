// Package ipmi controls machine power through a BMC: power state, power on,
// off and cycle, and the PXE boot device. Client drives real BMCs through
// bmclib v2, restricted to the providers a site configures (ipmitool first,
// Redfish optional), with a timeout on every attempt, retries with backoff
// for transient BMC errors, no retry on bad credentials (a retry could lock
// the BMC account), and one operation at a time per BMC.
//
// Every error is a *lifecycle.Error: CodeUnauthorized for credentials the BMC
// refused, CodeUnavailable (retryable) for a BMC that did not answer or
// answered busy, CodeInvalid for bad input, CodeInternal for anything else.
// Credentials are never logged and never appear in an error.
//
// sim/bmcsim is a simulated BMC with the same BMC interface, for the
// MAAS simulator and dev mode.
package ipmi
