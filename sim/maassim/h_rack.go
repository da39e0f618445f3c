package maassim

// jsonRackController is a rack controller as rackcontrollers/ renders it
// (DISPLAYED_RACK_CONTROLLER_FIELDS, api/rackcontrollers.py), the
// fields a client reads.
type jsonRackController struct {
	SystemID     string        `json:"system_id"`
	Hostname     string        `json:"hostname"`
	FQDN         string        `json:"fqdn"`
	Architecture string        `json:"architecture"`
	OSystem      string        `json:"osystem"`
	DistroSeries string        `json:"distro_series"`
	IPAddresses  []string      `json:"ip_addresses"`
	NodeType     int           `json:"node_type"`
	NodeTypeName string        `json:"node_type_name"`
	PowerState   string        `json:"power_state"`
	Version      string        `json:"version"`
	ServiceSet   []jsonService `json:"service_set"`
	Domain       jsonDomain    `json:"domain"`
	Zone         jsonRef       `json:"zone"`
	ResourceURI  string        `json:"resource_uri"`
}

// jsonService is one entry of service_set: name, status (running,
// degraded, dead, off, unknown) and status_info.
type jsonService struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	StatusInfo string `json:"status_info"`
}

// rackServices are the services MAAS tracks on a rack controller.
var rackServices = []string{"rackd", "tftp", "http", "dhcpd", "dhcpd6", "dns_rack", "ntp_rack", "proxy_rack", "syslog_rack"}

// listRackControllers is GET rackcontrollers/: the simulated region is
// one region+rack controller (node_type 4) with every service running
// but dhcpd6 (off: no IPv6 subnet is managed).
func (s *Sim) listRackControllers(*call) (any, *apiError) {
	const sid = "rack01"
	rc := jsonRackController{SystemID: sid, Hostname: "maas-region-1", FQDN: "maas-region-1.maas",
		Architecture: "amd64/generic", OSystem: "ubuntu", DistroSeries: "jammy", IPAddresses: []string{"10.16.0.2"},
		NodeType: 4, NodeTypeName: "Region and rack controller", PowerState: "unknown", Version: s.opts.Version,
		Domain:      jsonDomain{Name: "maas", ID: 0, ResourceURI: apiRoot + "domains/0/"},
		Zone:        jsonRef{Name: "default", ID: 1, ResourceURI: apiRoot + "zones/default/"},
		ResourceURI: apiRoot + "rackcontrollers/" + sid + "/"}
	for _, n := range rackServices {
		st := "running"
		if n == "dhcpd6" {
			st = "off"
		}
		rc.ServiceSet = append(rc.ServiceSet, jsonService{Name: n, Status: st})
	}
	return []jsonRackController{rc}, nil
}
