package lifecycle

import "fmt"

// MachineToken is a machine's MAAS hardware-sync credential (MAAS's
// NodeKey): what the bootstrap payload and the hw_sync_reseed task carry
// to the machine. It is never stored; TokenSecret prints redacted.
type MachineToken struct {
	ConsumerKey, TokenKey string
	TokenSecret           Secret
}

// BMCLogin is a machine's BMC address and credentials.
type BMCLogin struct {
	Address, User string
	Pass          Secret
}

// BMCCredential is a BMC user and password as the secret store keeps them
// (the site default or an override), before an address is known.
type BMCCredential struct {
	User string
	Pass Secret
}

// BootstrapSpec is the run-specific part of a node's first-boot payload;
// the renderer adds the daemon's own (agent API URL, CA, signing key).
type BootstrapSpec struct {
	Site            Site
	Policy          SitePolicy
	NodeID          string
	Hostname        string
	SystemID        string
	Architecture    string // the machine's MAAS architecture, such as arm64/generic
	DeployPassword  Secret
	EnrollmentToken Secret
	MachineToken    *MachineToken
	RoCE            []RoCEAssignment
}

// Format prints the token with its secret redacted, whatever the verb:
// fmt's fallback for a verb that does not fit a field would otherwise
// print the secret raw.
func (t MachineToken) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "{ConsumerKey:%s TokenKey:%s TokenSecret:%s}", t.ConsumerKey, t.TokenKey, redacted)
}

// Format prints the login with its password redacted, whatever the verb.
func (b BMCLogin) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "{Address:%s User:%s Pass:%s}", b.Address, b.User, redacted)
}

// Format prints the credential with its password redacted, whatever the verb.
func (c BMCCredential) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "{User:%s Pass:%s}", c.User, redacted)
}
