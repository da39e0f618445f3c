package cli

import (
	"context"
	"net/http"
	"net/netip"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

type node struct {
	Hostname string `json:"hostname"`
	IPMIIP   string `json:"ipmi_ip"`
}

// onboard submits one machine (--hostname, --ipmi-ip) or a CSV file of
// them (--csv, header hostname,ipmi_ip) as a batch. The CSV is checked
// whole before anything is sent.
func onboard(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	site := fs.String("site", "", "site id (required)")
	profile := fs.String("profile", "default", "profile id: default, the site's implicit profile")
	sku := fs.String("sku", "", "SKU id such as mi300x.192g.8gpu (required)")
	host := fs.String("hostname", "", "host name of one machine")
	ipmi := fs.String("ipmi-ip", "", "BMC address of one machine")
	path := fs.String("csv", "", "CSV `file` with the header hostname,ipmi_ip: a batch")
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
	rows, err := readCSV(path, "hostname", "ipmi_ip")
	if err != nil {
		return nil, err
	}
	nodes := make([]node, 0, len(rows))
	hosts, bmcs := map[string]int{}, map[string]int{}
	for _, r := range rows {
		n := node{Hostname: strings.ToLower(r.fields["hostname"]), IPMIIP: r.fields["ipmi_ip"]}
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
