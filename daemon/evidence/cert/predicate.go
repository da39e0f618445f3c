package cert

import "time"

// PredicateType names and versions the predicate; docs/clean-certificate.md
// documents it.
const PredicateType = "https://gpuaas.dev/maas-sidecar/clean-certificate/v1"

// PayloadType is the DSSE payload type of an in-toto Statement.
const PayloadType = "application/vnd.in-toto+json"

// Where a measurement was taken: the trust level of what it says.
const (
	// InBandTenantOS: reported by the agent on the tenant's running OS, a
	// host the tenant controlled.
	InBandTenantOS = "in_band_tenant_os"
	// AfterRedeploy: measured on a host the daemon had just redeployed.
	AfterRedeploy = "after_redeploy"
	// DaemonObserved: what the daemon saw through MAAS and its own records
	// (a release, a power-off, a removed record), nothing measured on the
	// host.
	DaemonObserved = "daemon_observed"
)

// Outcomes of the run a certificate closes.
const (
	// OutcomeClean: the run completed; every check passed.
	OutcomeClean = "clean"
	// OutcomeQuarantined: a clean check failed and the node was
	// quarantined; the failing checks say why.
	OutcomeQuarantined = "quarantined"
)

// NotMeasured is the erase and canary result until erase proof lands.
const NotMeasured = "not_measured"

// Node is the certificate's subject.
type Node struct {
	NodeID       string `json:"node_id"`
	MAASSystemID string `json:"maas_system_id"`
	// Serials are the bill of materials' serials (GPUs first), kept in
	// the subject's annotations.
	Serials []string `json:"serials,omitempty"`
}

// Predicate is the clean certificate's body.
type Predicate struct {
	EvidenceDigest string            `json:"evidence_digest"` // sha256:<hex> of the evidence JSON
	Mode           string            `json:"mode"`
	Outcome        string            `json:"outcome,omitempty"` // OutcomeClean or OutcomeQuarantined
	StartedAt      time.Time         `json:"started_at"`
	FinishedAt     time.Time         `json:"finished_at"`
	RequestedBy    string            `json:"requested_by"`
	Checks         []Check           `json:"checks"`
	Erase          Erase             `json:"erase"`
	GPUs           GPUSummary        `json:"gpus"`
	Versions       map[string]string `json:"versions,omitempty"` // tool and driver versions
	Previous       string            `json:"previous_certificate,omitempty"`
}

// Check is one check's verdict and where it was measured.
type Check struct {
	Name    string `json:"name"`
	Verdict string `json:"verdict"`
	Where   string `json:"where"`
	Detail  string `json:"detail,omitempty"`
}

// Erase is the erase method and canary result.
type Erase struct {
	Method string `json:"method"`
	Canary string `json:"canary"`
	Where  string `json:"where,omitempty"`
}

// GPUSummary summarises the node's GPUs and their diagnostics.
type GPUSummary struct {
	Count       int    `json:"count"`
	Model       string `json:"model,omitempty"`
	Diagnostics string `json:"diagnostics,omitempty"`
	Where       string `json:"where,omitempty"`
}
