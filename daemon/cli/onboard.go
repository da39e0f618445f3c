package cli

import (
	"context"
	"net/http"
	"net/netip"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// node is one machine of an onboarding request.
type node struct {
	Hostname   string `json:"hostname"`
	IPMIIP     string `json:"ipmi_ip"`
	GPUsTotal  *int   `json:"gpus_total,omitempty"`
	RegionCode string `json:"region_code,omitempty"`
}

// csvOptional are the optional columns of an onboarding CSV.
var csvOptional = []string{"gpus_total", "region_code"}

// onboard submits one machine (--hostname, --ipmi-ip) or a CSV file of
// them (--csv, header hostname,ipmi_ip and optionally gpus_total,
// region_code) as a batch. The CSV is checked whole before anything is
// sent. --gpus and --region apply to every machine that does not say.
func onboard(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site id (required)")
	profile := fs.String("profile", "default", "profile id: default, the site's implicit profile")
	sku := fs.String("sku", "", "SKU id such as mi300x.192g.8gpu (required)")
	host := fs.String("hostname", "", "host name of one machine")
	ipmi := fs.String("ipmi-ip", "", "BMC address of one machine")
	path := fs.String("csv", "", "CSV `file` with the header hostname,ipmi_ip (optional columns gpus_total,region_code): a batch")
	gpus := fs.Int("gpus", 0, "GPUs per machine; must match the SKU's count in the daemon's catalog (default: the catalog's)")
	region := fs.String("region", "", "region code for the nodes instead of the site's")
	key := fs.String("idempotency-key", "", "makes a retried submission return the first result")
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if *site == "" || *sku == "" {
		return usagef("--site and --sku are required")
	}
	if (*path == "") == (*host == "" && *ipmi == "") {
		return usagef("give either --csv FILE or --hostname and --ipmi-ip")
	}
	hdr := map[string]string{"Idempotency-Key": *key}
	sel := map[string]any{"site_id": *site, "profile_id": *profile, "sku_id": *sku}
	if err := shapeFlags(fs, sel, *gpus, *region); err != nil {
		return err
	}
	if *path == "" {
		sel["hostname"], sel["ipmi_ip"] = *host, *ipmi
		var out struct {
			ID     string `json:"onboarding_id"`
			Status string
		}
		raw, err := s.call(ctx, http.MethodPost, admin+"/onboardings", sel, &out, hdr)
		if err != nil {
			return err
		}
		return s.show(raw, "ONBOARDING HOSTNAME STATUS", [][]string{{out.ID, *host, out.Status}})
	}
	nodes, err := csvNodes(*path)
	if err != nil {
		return err
	}
	sel["nodes"] = nodes
	return s.submitBatch(ctx, sel, hdr)
}

func (s *session) submitBatch(ctx context.Context, body map[string]any, hdr map[string]string) error {
	var out struct {
		BatchID     string `json:"batch_id"`
		Onboardings []struct {
			Hostname string
			ID       string `json:"onboarding_id"`
		}
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/onboardings/batch", body, &out, hdr)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, o := range out.Onboardings {
		rows = append(rows, []string{out.BatchID, o.ID, o.Hostname})
	}
	return s.show(raw, "BATCH ONBOARDING HOSTNAME", rows)
}

// csvNodes reads and checks the machines of an onboarding CSV.
func csvNodes(path string) ([]node, error) {
	rows, err := readCSVOptional(path, []string{"hostname", "ipmi_ip"}, csvOptional)
	if err != nil {
		return nil, err
	}
	nodes := make([]node, 0, len(rows))
	hosts, bmcs := map[string]int{}, map[string]int{}
	for _, r := range rows {
		n := node{Hostname: strings.ToLower(r.fields["hostname"]), IPMIIP: r.fields["ipmi_ip"]}
		if err := csvShape(path, r, &n); err != nil {
			return nil, err
		}
		if !lifecycle.ValidHostname(n.Hostname) {
			return nil, usagef("%s:%d: hostname %q is not a host name", path, r.line, n.Hostname)
		}
		ip, err := netip.ParseAddr(n.IPMIIP)
		if err != nil {
			return nil, usagef("%s:%d: ipmi_ip %q is not an IP address", path, r.line, n.IPMIIP)
		}
		if l, dup := hosts[n.Hostname]; dup {
			return nil, usagef("%s:%d: hostname %s repeats line %d", path, r.line, n.Hostname, l)
		}
		if l, dup := bmcs[ip.String()]; dup {
			return nil, usagef("%s:%d: ipmi_ip %s repeats line %d", path, r.line, ip, l)
		}
		hosts[n.Hostname], bmcs[ip.String()] = r.line, r.line
		nodes = append(nodes, n)
	}
	return nodes, nil
}
