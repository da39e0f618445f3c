package admin

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteFields are the site members a client may set: on create, and on
// PATCH decoded over the current values. Vault paths are derived from the
// site id and never taken from a client.
type siteFields struct {
	Name               *string               `json:"name"`
	RegionCode         *string               `json:"region_code"`
	APIBaseURL         *string               `json:"api_base_url"`
	PXEIface           *string               `json:"pxe_iface"`
	PXEVLANVID         *int                  `json:"pxe_vlan_vid"`
	NodePXEIface       *string               `json:"node_pxe_iface"`
	DistroSeries       *string               `json:"distro_series"`
	Architecture       *string               `json:"architecture"`
	DeployUser         *string               `json:"deploy_user"`
	DeploySSHIface     *string               `json:"deploy_ssh_iface"`
	UpstreamDNSServers []string              `json:"upstream_dns_servers"`
	Status             *lifecycle.SiteStatus `json:"status"`
	PreferredDaemon    *string               `json:"preferred_daemon"`
	// Notify is replaced whole when present: decodePatch starts it nil,
	// so a body's notify is decoded fresh, not merged into the current one.
	Notify *lifecycle.SiteNotify `json:"notify"`
}

// fieldsOf returns s's settable members.
func fieldsOf(s lifecycle.Site) siteFields {
	return siteFields{Name: &s.Name, RegionCode: &s.RegionCode, APIBaseURL: &s.APIBaseURL,
		PXEIface: &s.PXEIface, PXEVLANVID: &s.PXEVLANVID, NodePXEIface: &s.NodePXEIface,
		DistroSeries: &s.DistroSeries, Architecture: &s.Architecture, DeployUser: &s.DeployUser,
		DeploySSHIface: &s.DeploySSHIface, UpstreamDNSServers: s.UpstreamDNSServers, Status: &s.Status,
		PreferredDaemon: &s.PreferredDaemon, Notify: &s.Notify}
}

// apply copies the set members onto s.
func (f siteFields) apply(s *lifecycle.Site) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&s.Name, f.Name)
	set(&s.RegionCode, f.RegionCode)
	set(&s.APIBaseURL, f.APIBaseURL)
	set(&s.PXEIface, f.PXEIface)
	set(&s.NodePXEIface, f.NodePXEIface)
	set(&s.DistroSeries, f.DistroSeries)
	set(&s.Architecture, f.Architecture)
	set(&s.DeployUser, f.DeployUser)
	set(&s.DeploySSHIface, f.DeploySSHIface)
	set(&s.PreferredDaemon, f.PreferredDaemon)
	if f.PXEVLANVID != nil {
		s.PXEVLANVID = *f.PXEVLANVID
	}
	if f.UpstreamDNSServers != nil {
		s.UpstreamDNSServers = f.UpstreamDNSServers
	}
	if f.Status != nil {
		s.Status = *f.Status
	}
	if f.Notify != nil {
		s.Notify = *f.Notify
	}
}

// check validates what Site.Validate does not: lengths, the DNS servers,
// and that a client sets status only to active or disabled.
func (f siteFields) check(op string) error {
	if f.PXEVLANVID == nil {
		return lifecycle.Invalid(op, "pxe_vlan_vid", "pxe_vlan_vid is required")
	}
	for name, v := range map[string]*string{"name": f.Name, "region_code": f.RegionCode,
		"api_base_url": f.APIBaseURL, "pxe_iface": f.PXEIface, "node_pxe_iface": f.NodePXEIface,
		"distro_series": f.DistroSeries, "architecture": f.Architecture, "deploy_user": f.DeployUser,
		"deploy_ssh_iface": f.DeploySSHIface} {
		if v != nil && len(*v) > 256 {
			return lifecycle.Invalid(op, name, "%s is longer than 256 characters", name)
		}
	}
	if len(f.UpstreamDNSServers) > 8 {
		return lifecycle.Invalid(op, "upstream_dns_servers", "at most 8 upstream DNS servers")
	}
	for i, d := range f.UpstreamDNSServers {
		if !lifecycle.ValidDNSServer(d) {
			return lifecycle.Invalid(op, "upstream_dns_servers", "upstream_dns_servers[%d] %.64q is not an IP address (without a zone)", i, d)
		}
	}
	if f.Status != nil && *f.Status != lifecycle.SiteActive && *f.Status != lifecycle.SiteDisabled {
		return lifecycle.Invalid(op, "status", "status %.32q is not active or disabled (DELETE removes a site)", *f.Status)
	}
	return nil
}
