package workflow

import (
	"context"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Deps are the ports the workflows use. All are required but Outbox (nil
// records no lifecycle events), Certs (nil issues no certificates), Metrics and Repairs (nil counts nothing), Reach (nil
// checks no deployed host's reachability), Recheck, Logger, and Scripts
// (needed only to answer BootstrapScript).
type Deps struct {
	Store     Store
	Connector Connector
	Secrets   Secrets
	Power     Power
	Bootstrap Bootstrap
	// Scripts renders manual hosts' bootstrap scripts (BootstrapScript).
	Scripts    Scripts
	Enrollment Enrollment
	Tasks      Tasks
	// Outbox records the lifecycle events of decommissions for the
	// control plane (the store's durable outbox).
	Outbox Outbox
	// Certs issues each completed turnover's and onboarding's clean
	// certificate, and a quarantined node's; nil issues none.
	Certs Certifier
	// Metrics counts failed clean validations and GPU scrubs.
	Metrics DecomMetrics
	// Repairs counts repair runs by outcome; nil counts nothing.
	Repairs RepairMetrics
	// Reach checks a deployed host answers on the address chosen by the
	// site's deploy_ssh_iface (seed 001 §4.3); nil turns the check off
	// (dev mode, whose simulated hosts listen on nothing).
	Reach Reachability
	// NewID returns a fresh id (injected randomness).
	NewID func() (string, error)
	// Recheck is how often a wait that no MAAS change announces (hardware
	// sync freshness, PXE discovery) looks again. Default 30s.
	Recheck time.Duration
	// Logger logs what a stage cannot report through its run (an event
	// the outbox refused after the run ended). Default slog.Default().
	Logger *slog.Logger
}

func (d Deps) logger() *slog.Logger {
	if d.Logger == nil {
		return slog.Default()
	}
	return d.Logger
}

func (d Deps) recheck() time.Duration {
	if d.Recheck <= 0 {
		return 30 * time.Second
	}
	return d.Recheck
}

var zero time.Time // a Wait bounded only by the stage timeout

// Run variables the onboarding keeps (never secrets).
const (
	varPowerPath     = "power_creds_path"
	varPowerOverride = "power_override_id"
	varBossDisk      = "boss_disk_id"
	varDeploys       = "deploys_issued"
	varDeploySeries  = "deploy_series" // the series the run's deploy asked for
	// varDeployToken is the hash of the enrollment token in the payload of
	// the run's last deploy whose outcome is unknown (a hash, not the
	// secret): the token an adopted deploy boots with.
	varDeployToken   = "deploy_token_hash"
	varDSRetries     = "datasource_retries"
	varFailureKind   = "deploy_failure_kind"
	varKnownNew      = "discovery_known_new"
	varDiscoveryFrom = "discovery_started_at"
	varPXECycled     = "pxe_cycled"
	varRecoverStep   = "recover_step"
	// varSyncAfter is the time a hardware-sync repair (a reseed, or
	// enable_hw_sync turned back on) was made: only a last_sync after it
	// shows MAAS observed a fresh cycle. varReseedAt is the last reseed.
	varSyncAfter = "hw_sync_fresh_after"
	varReseedAt  = "hw_sync_reseed_at"
)

// session is a stage's connection to its site's MAAS, made with the API
// key read from Vault now, so a rotated key is used at once. It holds the
// connection as the narrow ports the stages call, never as the MAAS union.
type session struct {
	site         lifecycle.Site
	checker      SiteChecker
	finder       Finder
	creator      Creator
	commissioner Commissioner
	storage      Storage
	network      Network
	deployer     Deployer
	releaser     Releaser
	events       Events
	tokens       Tokens
	hwsync       HWSyncSettings
	power        PowerController
	remover      Remover
}

func (d Deps) open(ctx context.Context, c *runner.Context) (session, error) {
	site, err := d.Store.GetSite(ctx, c.Run.SiteID)
	if err != nil {
		return session{}, err
	}
	key, err := d.Secrets.MAASToken(ctx, site.APITokenVaultPath)
	if err != nil {
		return session{}, secretErr(err, "MAAS API token")
	}
	m, err := d.Connector.Connect(site.APIBaseURL, key)
	if err != nil {
		return session{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, err)
	}
	return session{site: site, checker: m, finder: m, creator: m, commissioner: m, storage: m,
		network: m, deployer: m, releaser: m, events: m, tokens: m, hwsync: m, power: m, remover: m}, nil
}

// secretErr classifies a Vault failure: unreachable Vault is transient; a
// missing or forbidden secret is a site capability the operator must fix.
func secretErr(err error, what string) error {
	if lifecycle.IsRetryable(err) {
		return err
	}
	return runner.Classed(lifecycle.FailSiteCapabilityMissing,
		lifecycle.Errorf(lifecycle.ErrorCode(err), "workflow", "%s: %v", what, err))
}

// machine re-reads the run's machine; a machine gone from MAAS mid-run is
// a manual-intervention trigger (seed 000 §7).
func (s session) machine(ctx context.Context, c *runner.Context) (lifecycle.Machine, error) {
	sid := c.Run.MaasSystemID
	m, err := s.finder.Machine(ctx, sid)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return m, runner.Classed(lifecycle.FailStateAmbiguity,
			lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "machine %s was deleted from MAAS during the run", sid))
	}
	if err == nil {
		observe(c, m)
	}
	return m, err
}

func observe(c *runner.Context, m lifecycle.Machine) {
	c.Observe(lifecycle.ObservedMaas{Status: m.Status.String(), PowerState: m.PowerState, IPs: m.IPs})
}

// refresh opens the site's MAAS and re-reads the run's machine: what every
// stage does before it acts (seed 001 §4.10, refresh observed state first).
func (d Deps) refresh(ctx context.Context, c *runner.Context) (session, lifecycle.Machine, error) {
	s, err := d.open(ctx, c)
	if err != nil {
		return s, lifecycle.Machine{}, err
	}
	m, err := s.machine(ctx, c)
	return s, m, err
}
