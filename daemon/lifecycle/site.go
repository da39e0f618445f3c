package lifecycle

import (
	"net/url"
	"strings"
	"time"
)

// SiteStatus is whether a site accepts new work.
type SiteStatus string

// Site statuses. A disabled site rejects new onboardings while in-flight
// runs continue; a deleted site is a soft-deleted record.
const (
	SiteActive   SiteStatus = "active"
	SiteDisabled SiteStatus = "disabled"
	SiteDeleted  SiteStatus = "deleted"
)

// Site is one MAAS region (seed 001 §3.1, §3.6). It stores Vault paths,
// never secret values.
type Site struct {
	ID                         string     `json:"id"`
	Name                       string     `json:"name"`
	RegionCode                 string     `json:"region_code"`
	APIBaseURL                 string     `json:"api_base_url"`
	APITokenVaultPath          string     `json:"api_token_vault_path"`
	DefaultPowerCredsVaultPath string     `json:"default_power_creds_vault_path"`
	DeployPasswordVaultPath    string     `json:"deploy_password_vault_path"`
	PXEIface                   string     `json:"pxe_iface"`
	PXEVLANVID                 int        `json:"pxe_vlan_vid"`
	NodePXEIface               string     `json:"node_pxe_iface"`
	DistroSeries               string     `json:"distro_series"`
	Architecture               string     `json:"architecture"`
	DeployUser                 string     `json:"deploy_user"`
	DeploySSHIface             string     `json:"deploy_ssh_iface"`
	UpstreamDNSServers         []string   `json:"upstream_dns_servers"`
	Status                     SiteStatus `json:"status"`
	CreatedAt                  time.Time  `json:"created_at"`
	UpdatedAt                  time.Time  `json:"updated_at"`
	// PreferredDaemon, when set, names the daemon (its daemon_name) that
	// should hold the site's lease whenever it runs: another holder hands
	// the site back to it once it is up (see LeaseStore.RequestLease).
	PreferredDaemon string `json:"preferred_daemon,omitempty"`
	// Notify configures the LISTEN feed on the region's database.
	Notify SiteNotify `json:"notify"`
}

// SiteVaultPaths returns the seed's Vault paths for site id (seed 001 §3.2).
func SiteVaultPaths(id string) (apiToken, powerDefault, deployPassword string) {
	base := "kv/maas-sites/" + id
	return base + "/api-token", base + "/power/default", base + "/deploy-password"
}

// WithDefaults fills the seed's column defaults and the Vault paths.
func (s Site) WithDefaults() Site {
	tok, pow, dep := SiteVaultPaths(s.ID)
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	def(&s.APITokenVaultPath, tok)
	def(&s.DefaultPowerCredsVaultPath, pow)
	def(&s.DeployPasswordVaultPath, dep)
	def(&s.DistroSeries, "ubuntu/noble")
	def(&s.Architecture, "amd64/generic")
	def(&s.DeployUser, "hpcadmin")
	def(&s.DeploySSHIface, "eno8303")
	def((*string)(&s.Status), string(SiteActive))
	if s.UpstreamDNSServers == nil {
		s.UpstreamDNSServers = []string{"1.1.1.1", "8.8.8.8"}
	}
	return s
}

// Validate checks a site record, naming the first bad field.
func (s Site) Validate() error {
	const op = "lifecycle.Site"
	required := []struct{ field, v string }{
		{"id", s.ID}, {"name", s.Name}, {"region_code", s.RegionCode},
		{"api_base_url", s.APIBaseURL}, {"pxe_iface", s.PXEIface},
		{"node_pxe_iface", s.NodePXEIface},
	}
	for _, r := range required {
		if strings.TrimSpace(r.v) == "" {
			return Invalid(op, r.field, "%s is required", r.field)
		}
	}
	if u, err := url.Parse(s.APIBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Invalid(op, "api_base_url", "api_base_url must be an http(s) URL such as http://10.0.0.1:5240/MAAS")
	}
	if s.PXEVLANVID < 0 || s.PXEVLANVID > 4094 {
		return Invalid(op, "pxe_vlan_vid", "pxe_vlan_vid %d is outside 0-4094", s.PXEVLANVID)
	}
	if err := CheckDaemonName(s.PreferredDaemon); err != nil {
		return Invalid(op, "preferred_daemon", "preferred_daemon %.80q %v", s.PreferredDaemon, err)
	}
	if err := s.Notify.Validate(); err != nil {
		return err
	}
	switch s.Status {
	case SiteActive, SiteDisabled, SiteDeleted:
	default:
		return Invalid(op, "status", "status %q is not one of active, disabled", s.Status)
	}
	return nil
}
