package lifecycle

import "time"

// SitePolicy is the site's implicit default profile (seed 001 §3.6), plus
// the policy-driven timeouts of §4.14 and the heartbeat threshold of §6.3.
type SitePolicy struct {
	SiteID                               string `json:"site_id"`
	StrictPXEPreflight                   bool   `json:"strict_pxe_preflight"`
	EnablePhase2RoCE                     bool   `json:"enable_phase2_roce"`
	RequireHWSync                        bool   `json:"require_hw_sync"`
	HardwareSyncInterval                 string `json:"hardware_sync_interval"`
	ReleaseFallbackNoErase               bool   `json:"release_fallback_no_erase"`
	EnableDeployRetryOnDatasourceFailure bool   `json:"enable_deploy_retry_on_datasource_failure"`
	MaxDeployRetryAttempts               int    `json:"max_deploy_retry_attempts"`
	AutoClaimSingleNewMachine            bool   `json:"auto_claim_single_new_machine"`
	BatchMaxParallel                     int    `json:"batch_max_parallel"`
	SiteBootstrapBundleRef               string `json:"site_bootstrap_bundle_ref,omitempty"`
	EnrollmentTokenTTLSeconds            int    `json:"enrollment_token_ttl_seconds"`
	InitShareDisks                       bool   `json:"init_share_disks"`
	DiscoveryTimeoutSeconds              int    `json:"discovery_timeout_seconds"`
	CommissionTimeoutSeconds             int    `json:"commission_timeout_seconds"`
	DeployTimeoutSeconds                 int    `json:"deploy_timeout_seconds"`
	HWSyncSeedTimeoutSeconds             int    `json:"hw_sync_seed_timeout_seconds"`
	HWSyncHealthTimeoutSeconds           int    `json:"hw_sync_health_timeout_seconds"`
	EnrollmentTimeoutSeconds             int    `json:"enrollment_timeout_seconds"`
	HeartbeatOfflineSeconds              int    `json:"heartbeat_offline_seconds"`
	// RemoveMaasRecord deletes the machine from MAAS at the end of a full
	// decommission (seed 001 §5.4); false leaves it for MAAS-side audit.
	RemoveMaasRecord bool `json:"remove_maas_record"`
	// The decommission waits (0 means the default of DefaultSitePolicy, so
	// policies stored before these fields existed stay valid).
	ReleaseTimeoutSeconds   int `json:"release_timeout_seconds,omitempty"`
	PowerOffTimeoutSeconds  int `json:"power_off_timeout_seconds,omitempty"`
	AgentTaskTimeoutSeconds int `json:"agent_task_timeout_seconds,omitempty"`
	// RebootTimeoutSeconds bounds the scrub's reboot fallback: from the
	// node.reboot task until the agent reports another boot.
	RebootTimeoutSeconds int `json:"reboot_timeout_seconds,omitempty"`
	// DCGM diagnostics in node.validate_clean (docs/operations.md): off,
	// the dcgmi diag level per turnover mode (0 means the default: soft
	// reset 1, reimage and full decommission 2, onboarding acceptance 3),
	// and the bound of each level in seconds, keyed "1".."4".
	DCGMOff             bool `json:"dcgm_off,omitempty"`
	DCGMLevelSoftReset  int  `json:"dcgm_level_soft_reset,omitempty"`
	DCGMLevelReimage    int  `json:"dcgm_level_reimage,omitempty"`
	DCGMLevelOnboarding int  `json:"dcgm_level_onboarding,omitempty"`
	// DCGMLevelRepair is the level of a repair run's diagnostics (0: 3).
	DCGMLevelRepair    int            `json:"dcgm_level_repair,omitempty"`
	DCGMTimeoutSeconds map[string]int `json:"dcgm_timeout_seconds,omitempty"`
	// OnboardingAcceptance runs node.validate_clean in mode
	// onboarding_acceptance (DCGM at dcgm_level_onboarding) on the
	// enrolled host before a MAAS onboarding moves the node active. On by
	// default: nil (a policy stored before the field existed) is on, and
	// only an explicit false turns it off (AcceptanceOn).
	OnboardingAcceptance *bool `json:"onboarding_acceptance,omitempty"`
	// TenantDrives names the tenant data drives: erased by storage
	// cleanup drives, and carrying the canaries of a reimage's MAAS
	// erase. Nil: no drive is a tenant drive.
	TenantDrives *TenantDrives `json:"tenant_drives,omitempty"`
	// Health decides what a node's health verdict and a reported fault
	// do (HealthPolicy; nil: its defaults).
	Health    *HealthPolicy `json:"health,omitempty"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
}

// DefaultSitePolicy returns the seed's defaults: the one place they live.
func DefaultSitePolicy(siteID string) SitePolicy {
	return SitePolicy{
		SiteID:                               siteID,
		StrictPXEPreflight:                   true,
		EnablePhase2RoCE:                     true,
		RequireHWSync:                        true,
		HardwareSyncInterval:                 "15m",
		ReleaseFallbackNoErase:               true,
		EnableDeployRetryOnDatasourceFailure: true,
		MaxDeployRetryAttempts:               1,
		AutoClaimSingleNewMachine:            false,
		BatchMaxParallel:                     10,
		EnrollmentTokenTTLSeconds:            7200,
		InitShareDisks:                       true,
		DiscoveryTimeoutSeconds:              900,
		CommissionTimeoutSeconds:             2400,
		DeployTimeoutSeconds:                 3600,
		HWSyncSeedTimeoutSeconds:             900,
		HWSyncHealthTimeoutSeconds:           1800,
		EnrollmentTimeoutSeconds:             1800,
		HeartbeatOfflineSeconds:              300,
		ReleaseTimeoutSeconds:                defaultReleaseTimeout,
		PowerOffTimeoutSeconds:               defaultPowerOffTimeout,
		AgentTaskTimeoutSeconds:              defaultAgentTaskTimeout,
		OnboardingAcceptance:                 Switch(true),
	}
}

// Switch is an explicit setting of an optional switch such as
// OnboardingAcceptance (a new pointer each call: policies share none).
func Switch(on bool) *bool { return &on }

// AcceptanceOn says whether a MAAS onboarding runs the onboarding
// acceptance check: unless the policy turns it off explicitly.
func (p SitePolicy) AcceptanceOn() bool {
	return p.OnboardingAcceptance == nil || *p.OnboardingAcceptance
}

// TimeoutFor returns the policy timeout named by a StageSpec's Timeout key.
func (p SitePolicy) TimeoutFor(key string) time.Duration {
	secs := map[string]int{
		"discovery_timeout":      p.DiscoveryTimeoutSeconds,
		"commission_timeout":     p.CommissionTimeoutSeconds,
		"deploy_timeout":         p.DeployTimeoutSeconds,
		"hw_sync_seed_timeout":   p.HWSyncSeedTimeoutSeconds,
		"hw_sync_health_timeout": p.HWSyncHealthTimeoutSeconds,
		"enrollment_timeout":     p.EnrollmentTimeoutSeconds,
		"release_timeout":        orDefault(p.ReleaseTimeoutSeconds, defaultReleaseTimeout),
		"power_off_timeout":      orDefault(p.PowerOffTimeoutSeconds, defaultPowerOffTimeout),
		"agent_task_timeout":     orDefault(p.AgentTaskTimeoutSeconds, defaultAgentTaskTimeout),
		"reboot_timeout":         orDefault(p.RebootTimeoutSeconds, defaultRebootTimeout),
	}[key]
	return time.Duration(secs) * time.Second
}

// Validate checks bounds, naming the first bad field.
func (p SitePolicy) Validate() error {
	const op = "lifecycle.SitePolicy"
	if p.SiteID == "" {
		return Invalid(op, "site_id", "site_id is required")
	}
	if d, err := time.ParseDuration(p.HardwareSyncInterval); err != nil || d < time.Minute {
		return Invalid(op, "hardware_sync_interval", "hardware_sync_interval %q must be a duration of at least 1m, such as 15m", p.HardwareSyncInterval)
	}
	bounds := []struct {
		field    string
		v        int
		min, max int
	}{
		{"max_deploy_retry_attempts", p.MaxDeployRetryAttempts, 0, 5},
		{"batch_max_parallel", p.BatchMaxParallel, 1, 1000},
		{"enrollment_token_ttl_seconds", p.EnrollmentTokenTTLSeconds, 300, 7 * 86400},
		{"discovery_timeout_seconds", p.DiscoveryTimeoutSeconds, 30, 86400},
		{"commission_timeout_seconds", p.CommissionTimeoutSeconds, 60, 86400},
		{"deploy_timeout_seconds", p.DeployTimeoutSeconds, 60, 86400},
		{"hw_sync_seed_timeout_seconds", p.HWSyncSeedTimeoutSeconds, 30, 86400},
		{"hw_sync_health_timeout_seconds", p.HWSyncHealthTimeoutSeconds, 30, 86400},
		{"enrollment_timeout_seconds", p.EnrollmentTimeoutSeconds, 30, 86400},
		{"heartbeat_offline_seconds", p.HeartbeatOfflineSeconds, 30, 86400},
		{"release_timeout_seconds", orDefault(p.ReleaseTimeoutSeconds, defaultReleaseTimeout), 60, 7 * 86400},
		{"power_off_timeout_seconds", orDefault(p.PowerOffTimeoutSeconds, defaultPowerOffTimeout), 30, 86400},
		{"agent_task_timeout_seconds", orDefault(p.AgentTaskTimeoutSeconds, defaultAgentTaskTimeout), 30, 86400},
		{"reboot_timeout_seconds", orDefault(p.RebootTimeoutSeconds, defaultRebootTimeout), 60, 7200},
	}
	for _, b := range bounds {
		if b.v < b.min || b.v > b.max {
			return Invalid(op, b.field, "%s %d is outside %d-%d", b.field, b.v, b.min, b.max)
		}
	}
	if err := p.validateDCGM(op); err != nil {
		return err
	}
	if err := p.TenantDrives.validate(op); err != nil {
		return err
	}
	if err := p.Health.validate(op); err != nil {
		return err
	}
	if p.EnrollmentTokenTTLSeconds < p.DeployTimeoutSeconds {
		return Invalid(op, "enrollment_token_ttl_seconds", "enrollment_token_ttl_seconds (%d) must exceed deploy_timeout_seconds (%d): the token must outlive deploy and first boot", p.EnrollmentTokenTTLSeconds, p.DeployTimeoutSeconds)
	}
	return nil
}
