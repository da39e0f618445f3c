// Package config is the daemon's configuration: one Config type, its
// defaults in one place, YAML loading that rejects unknown keys, and
// validation whose errors name the offending key.
package config

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DefaultPath is where serve looks for its config file when --config is not
// given. A missing file there is not an error.
const DefaultPath = "/etc/maas-sidecar/config.yaml"

// Config is the configuration of `maas-sidecar serve`. The YAML keys are the
// field tags; command-line flags override file values.
type Config struct {
	// AdminListen is the host:port of the admin API, /healthz, /readyz and
	// /metrics. Port 0 picks a free port (the bound address is logged).
	AdminListen string `yaml:"admin_listen"`
	// AdminHTTP bounds the admin listener's clients.
	AdminHTTP HTTP `yaml:"admin_http"`
	// StateDir holds the store file and the first admin token; it is
	// created with mode 0700.
	StateDir string `yaml:"state_dir"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// ShutdownTimeout bounds how long in-flight HTTP requests may run
	// after SIGTERM before they are cut.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// StoreLockTimeout bounds the wait for the store file's lock when
	// another process holds it.
	StoreLockTimeout time.Duration `yaml:"store_lock_timeout"`
	// Agent is the node agents' API (mutual TLS).
	Agent Agent `yaml:"agent"`
	// Vault is where every secret lives; without an address the daemon
	// runs but cannot read site credentials (onboardings fail their first
	// stage with site_capability_missing).
	Vault Vault `yaml:"vault"`
	// IPMI configures direct BMC access (the PXE discovery path).
	IPMI IPMI `yaml:"ipmi"`
	// Connectivity checks deployed hosts answer on their deploy address.
	Connectivity Connectivity `yaml:"connectivity"`
	// Events delivers the lifecycle events of the outbox.
	Events Events `yaml:"events"`
	// PollInterval is how often the change feed reads each site's MAAS
	// events cursor (webhooks come at once; a full resync runs every 5m).
	PollInterval time.Duration `yaml:"poll_interval"`
	// DaemonName names this daemon among the daemons sharing a store: it
	// holds site leases under it and names its bootstrap admin token.
	// Empty means the host's name (see Config.Holder); set it when several
	// daemons share one host.
	DaemonName string `yaml:"daemon_name"`
	// Store is the state backend and the site leases.
	Store Store `yaml:"store"`
	// Notify is the LISTEN feed on the sites' region databases.
	Notify Notify `yaml:"notify"`
	// Console is the operator console behind a reverse proxy.
	Console Console `yaml:"console"`
	// SKUs is the catalog of machine shapes an onboarding may name, each
	// with its GPU count (the node's gpus_total); a list in the file
	// replaces the default one whole.
	SKUs []lifecycle.SKU `yaml:"skus"`
	// Dev runs a simulated site inside the daemon (flag --dev only);
	// DevIdle skips its demo batch (--dev-idle).
	Dev     bool `yaml:"-"`
	DevIdle bool `yaml:"-"`
	// DevNoPostgres keeps dev mode off PostgreSQL even where it is
	// installed (--dev-no-postgres): no region database, no LISTEN feed.
	DevNoPostgres bool `yaml:"-"`
}

// Agent configures the agent API and what cloud-init tells the agents.
type Agent struct {
	// Listen is the agent API's host:port.
	Listen string `yaml:"listen"`
	// HTTP bounds the agent listener's clients.
	HTTP HTTP `yaml:"http"`
	// Connections bound what one source and the unauthenticated can hold
	// of the listener's http.max_connections.
	Connections AgentConnections `yaml:"connections"`
	// URL is what deployed machines dial, e.g. https://region1.example:5291;
	// default https://<this host's name>:<listen port>.
	URL string `yaml:"url"`
	// CertHosts are the DNS names and IPs in the listener's certificate;
	// default the host of URL.
	CertHosts []string `yaml:"cert_hosts"`
	// Packages locate the gpuaas-node-agent .deb that cloud-init installs,
	// by Debian architecture (amd64, arm64): a machine gets the package of
	// its MAAS architecture. See Agent.PackageSet.
	Packages map[string]AgentPackage `yaml:"packages"`
	// PackageURL and PackageSHA256 are the older single-package keys: they
	// set the amd64 entry of Packages (setting both forms is an error).
	PackageURL    string `yaml:"package_url"`
	PackageSHA256 string `yaml:"package_sha256"`
	// HealthInterval is the agents' passive health watch interval, written
	// into the agent config cloud-init ships (health.interval): a fault
	// such as an Xid 79 is judged within about one interval.
	HealthInterval time.Duration `yaml:"health_interval"`
}

// Vault is the Vault server and login (a token file or an AppRole).
type Vault struct {
	Address      string `yaml:"address"`
	Namespace    string `yaml:"namespace"`
	CACertFile   string `yaml:"ca_cert_file"`
	TokenFile    string `yaml:"token_file"`
	RoleIDFile   string `yaml:"role_id_file"`
	SecretIDFile string `yaml:"secret_id_file"`
}

// IPMI is direct BMC access through bmclib.
type IPMI struct {
	Providers   []string      `yaml:"providers"`    // in the order tried
	CipherSuite string        `yaml:"cipher_suite"` // ipmitool's -C
	Timeout     time.Duration `yaml:"timeout"`      // per attempt
}

// Default returns the configuration used for every key the file and the
// flags leave unset.
func Default() Config {
	return Config{
		AdminListen:      "127.0.0.1:5290",
		AdminHTTP:        defaultHTTP(256),
		StateDir:         "/var/lib/maas-sidecar",
		LogLevel:         "info",
		ShutdownTimeout:  10 * time.Second,
		StoreLockTimeout: 5 * time.Second,
		Agent: Agent{Listen: ":5291", HTTP: defaultHTTP(8192), Connections: defaultAgentConnections(),
			HealthInterval: DefaultAgentHealthInterval},
		PollInterval: 10 * time.Second,
		Events:       defaultEvents(),
		Connectivity: defaultConnectivity(),
		Store:        defaultStore(),
		Notify:       defaultNotify(),
		IPMI:         IPMI{Providers: []string{"ipmitool"}, CipherSuite: "3", Timeout: 20 * time.Second},
		SKUs:         lifecycle.DefaultSKUs(),
	}
}
