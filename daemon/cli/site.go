package cli

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

type site struct {
	ID, Name, Status string
	APIBaseURL       string `json:"api_base_url"`
	PXEIface         string `json:"pxe_iface"`
	PXEVLANVID       int    `json:"pxe_vlan_vid"`
	NodePXEIface     string `json:"node_pxe_iface"`
	PreferredDaemon  string `json:"preferred_daemon"`
	Notify           struct{ Source, DSN string }
}

func (x site) row() []string {
	return []string{x.ID, x.Name, x.Status, x.APIBaseURL, x.PXEIface, fmt.Sprint(x.PXEVLANVID), x.NodePXEIface,
		dash(x.Notify.Source), dash(x.Notify.DSN), dash(x.PreferredDaemon)}
}

const siteHeader = "ID NAME STATUS MAAS PXE_IFACE VLAN NODE_PXE_IFACE NOTIFY NOTIFY_DSN PREFERRED_DAEMON"

// siteFlags declares the settable site members; set reports which were given.
func (s *session) siteFlags() func() map[string]any {
	fs := s.flags()
	str := map[string]*string{}
	for _, f := range []struct{ flag, key, help string }{
		{"name", "name", "site name"}, {"region", "region_code", "region code"},
		{"url", "api_base_url", "MAAS URL such as http://10.0.0.1:5240/MAAS"},
		{"pxe-iface", "pxe_iface", "MAAS-side PXE interface"}, {"node-pxe-iface", "node_pxe_iface", "node-side PXE interface"},
		{"distro", "distro_series", "distro series"}, {"arch", "architecture", "architecture"},
		{"deploy-user", "deploy_user", "deploy user"}, {"ssh-iface", "deploy_ssh_iface", "deploy SSH interface"},
	} {
		str[f.key] = fs.String(f.flag, "", f.help)
	}
	vlan := fs.Int("vlan", 0, "PXE VLAN id")
	pref := fs.String("preferred-daemon", "", "daemon_name of the daemon that should hold the site's lease whenever it runs (\"\" clears it)")
	dns := fs.String("dns", "", "comma-separated upstream DNS servers (IP addresses), written to each deployed host's systemd-resolved as DNS=")
	notify := s.notifyFlags()
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	return func() map[string]any {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		body := map[string]any{}
		for k, v := range str {
			if *v != "" {
				body[k] = *v
			}
		}
		if given["vlan"] {
			body["pxe_vlan_vid"] = *vlan
		}
		if given["preferred-daemon"] {
			body["preferred_daemon"] = *pref
		}
		if *dns != "" {
			body["upstream_dns_servers"] = strings.Split(*dns, ",")
		}
		if n := notify(given); n != nil {
			body["notify"] = n
		}
		return body
	}
}

func siteCreate(ctx context.Context, s *session, args []string) error {
	body := s.siteFlags()
	local := s.fs.Bool("from-local-maas", false, "take --url from this region controller's regiond.conf (maas_url; deb, then snap)")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if err := s.checkNotifySource(); err != nil {
		return err
	}
	b := body()
	if *local {
		if err := s.fillLocalMAAS(b); err != nil {
			return err
		}
	}
	var x site
	raw, err := s.call(ctx, http.MethodPost, admin+"/maas-sites", b, &x, nil)
	if err != nil {
		return err
	}
	s.warnShareDisks(ctx, x.ID)
	return s.show(raw, siteHeader, [][]string{x.row()})
}

// warnShareDisks says loudly that the new site's deploys wipe disks: its
// policy initialises /shareN by default (seed 001 §9).
func (s *session) warnShareDisks(ctx context.Context, id string) {
	var p struct {
		InitShareDisks bool `json:"init_share_disks"`
	}
	if _, err := s.call(ctx, http.MethodGet, admin+"/maas-sites/"+id+"/policy", nil, &p, nil); err != nil || !p.InitShareDisks {
		return
	}
	s.warnf("site %s: init_share_disks is on (the default): every deploy FORMATS each non-root disk that has no partitions or file system and mounts it as /shareN; turn it off before onboarding with: maas-sidecar policy set %s init_share_disks=false\n", id, id)
}

func siteUpdate(ctx context.Context, s *session, args []string) error {
	body := s.siteFlags()
	status := s.fs.String("status", "", "active or disabled")
	pwFile := s.fs.String("notify-db-password-file", "", "`file` with the region database password, - for stdin: required when --notify-dsn changes host, port, user, database, sslmode or sslrootcert, or switches to dsn; proved against the new target before anything changes")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	if err := s.checkNotifySource(); err != nil {
		return err
	}
	b := body()
	if *status != "" {
		b["status"] = *status
	}
	if *pwFile != "" {
		if b["notify_db_password"], err = s.readSecret(*pwFile, "the region database password"); err != nil {
			return err
		}
	}
	if len(b) == 0 {
		return usagef("nothing to update: give at least one flag")
	}
	return s.patchSite(ctx, pos[0], b)
}

func (s *session) patchSite(ctx context.Context, id string, b map[string]any) error {
	var x site
	raw, err := s.call(ctx, http.MethodPatch, admin+"/maas-sites/"+id, b, &x, nil)
	if err != nil {
		return err
	}
	return s.show(raw, siteHeader, [][]string{x.row()})
}

func siteStatus(status string) command {
	return func(ctx context.Context, s *session, args []string) error {
		s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
		pos, err := s.parse(args, 1, "SITE")
		if err != nil {
			return err
		}
		return s.patchSite(ctx, pos[0], map[string]any{"status": status})
	}
}

func siteList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	all := fs.Bool("all", false, "include deleted sites")
	limit := limitFlag(fs)
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	items, raw, err := s.listAll(ctx, admin+"/maas-sites", url.Values{"include_deleted": {fmt.Sprint(*all)}}, "sites", *limit)
	if err != nil {
		return err
	}
	sites, err := decodeAll[site](items)
	if err != nil {
		return err
	}
	rows := make([][]string, 0, len(sites))
	for _, x := range sites {
		rows = append(rows, x.row())
	}
	return s.show(raw, siteHeader, rows)
}

func siteGet(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	var x site
	raw, err := s.call(ctx, http.MethodGet, admin+"/maas-sites/"+pos[0], nil, &x, nil)
	if err != nil {
		return err
	}
	return s.show(raw, siteHeader, [][]string{x.row()})
}

func siteDelete(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	raw, err := s.call(ctx, http.MethodDelete, admin+"/maas-sites/"+pos[0], nil, nil, nil)
	if err != nil {
		return err
	}
	return s.kv(raw, "deleted", pos[0])
}

// fillLocalMAAS sets api_base_url in b from the local region's
// regiond.conf; --url with it is a usage error.
func (s *session) fillLocalMAAS(b map[string]any) error {
	url := false
	s.fs.Visit(func(f *flag.Flag) { url = url || f.Name == "url" })
	if url {
		return usagef("--url and --from-local-maas exclude each other: give one")
	}
	u, from, err := localMAASURL(s.env.Root)
	if err != nil {
		return fmt.Errorf("--from-local-maas: %w", err)
	}
	b["api_base_url"] = u
	fmt.Fprintf(s.env.Stderr, "MAAS URL %s from %s\n", u, from)
	return nil
}
