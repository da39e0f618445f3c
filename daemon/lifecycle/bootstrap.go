package lifecycle

// TokenPurpose says what a one-time secret of the enrollment token store
// is for: an agent's enrollment, or the fetch of a manual host's
// bootstrap script (seed 000 §3, seed 001 §2.1). A secret of one purpose
// never serves the other.
type TokenPurpose string

// Token purposes.
const (
	// TokenEnroll is an agent enrollment token (the zero value, so tokens
	// stored before purposes existed keep theirs).
	TokenEnroll TokenPurpose = ""
	// TokenBootstrap is a bootstrap ticket: it fetches the node's
	// bootstrap script once, which then carries a fresh enrollment token.
	TokenBootstrap TokenPurpose = "bootstrap"
)

// OnboardingMode says how an onboarding reaches its host (seed 001 §2.1).
type OnboardingMode string

// Onboarding modes.
const (
	// OnboardMAAS commissions and deploys the machine through MAAS (the
	// zero value: every onboarding before manual mode existed).
	OnboardMAAS OnboardingMode = ""
	// OnboardManual enrolls a host MAAS does not deploy: the operator runs
	// a one-time bootstrap script on it and the run waits for its agent.
	OnboardManual OnboardingMode = "manual"
)

// ScriptMode is the form of a manual host's bootstrap script.
type ScriptMode string

// Script modes (seed 001 §9: the bootstrap-script endpoint).
const (
	ScriptShell     ScriptMode = "shell"
	ScriptCloudInit ScriptMode = "cloud_init"
)

// Valid reports whether m is a known script mode.
func (m ScriptMode) Valid() bool { return m == ScriptShell || m == ScriptCloudInit }
