package wire

import (
	"crypto/sha256"
	"encoding/hex"
)

// Problem codes (Problem.Code) of the enrollment refusals an agent acts on.
const (
	// ProblemTokenExpired answers an enrollment whose token expired unspent:
	// the agent may ask RouteRenewToken to replace it.
	ProblemTokenExpired = "enrollment_token_expired"
	// ProblemRenewalNotGranted answers a renewal the daemon has not (or no
	// longer) granted: the agent keeps its token and asks again later.
	ProblemRenewalNotGranted = "enrollment_renewal_not_granted"
)

// TokenHash is the form in which the daemon stores an enrollment token:
// the lower-case hex SHA-256 of its text.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
