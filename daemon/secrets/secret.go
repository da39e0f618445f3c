package secrets

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// Secret is the domain's redacting secret value (lifecycle.Secret):
// printing, logging or marshalling it shows "[redacted]".
type Secret = lifecycle.Secret

// PowerCredentials log in to a BMC (lifecycle.BMCCredential).
type PowerCredentials = lifecycle.BMCCredential
