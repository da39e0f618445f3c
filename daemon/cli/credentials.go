package cli

import (
	"context"
	"net/http"
	"sort"
	"strings"
)

// siteCredentials sends the MAAS key, and optionally the default power
// credentials, the deploy password, the webhook secret and the LISTEN
// role's database password, each read from a file or stdin
// ("-"): secrets never come from arguments, where ps and shell history
// would show them.
func siteCredentials(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	keyFile := fs.String("maas-key-file", "", "`file` with the MAAS API key, - for stdin (required)")
	powerUser := fs.String("power-user", "", "default BMC user (not secret)")
	powerFile := fs.String("power-password-file", "", "`file` with the default BMC password, - for stdin")
	deployFile := fs.String("deploy-password-file", "", "`file` with the deploy user's password, - for stdin")
	hookFile := fs.String("webhook-secret-file", "", "`file` with the HMAC secret of the site's MAAS change hints, - for stdin")
	notifyFile := fs.String("notify-db-password-file", "", "`file` with the password of the database role in the site's notify DSN (its LISTEN feed), - for stdin")
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	if *keyFile == "" {
		return usagef("--maas-key-file is required")
	}
	if (*powerUser == "") != (*powerFile == "") {
		return usagef("--power-user and --power-password-file go together")
	}
	stdin := 0
	for _, f := range []string{*keyFile, *powerFile, *deployFile, *hookFile, *notifyFile} {
		if f == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return usagef("only one secret can come from stdin")
	}
	body := map[string]any{}
	if body["maas_api_key"], err = s.readSecret(*keyFile, "the MAAS key"); err != nil {
		return err
	}
	if *powerFile != "" {
		pw, err := s.readSecret(*powerFile, "the power password")
		if err != nil {
			return err
		}
		body["power_credentials"] = map[string]string{"user": *powerUser, "password": pw}
	}
	for flag, field := range map[*string]string{deployFile: "deploy_password", hookFile: "webhook_secret", notifyFile: "notify_db_password"} {
		if *flag != "" {
			if body[field], err = s.readSecret(*flag, strings.ReplaceAll(field, "_", " ")); err != nil {
				return err
			}
		}
	}
	var out struct {
		MAAS    struct{ Version, User string }
		Written []string `json:"written_paths"`
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/maas-sites/"+pos[0]+"/credentials", body, &out, nil)
	if err != nil {
		return err
	}
	return s.kv(raw, "maas_version", out.MAAS.Version, "maas_user", out.MAAS.User, "written", strings.Join(out.Written, ","))
}

func siteProbe(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	var out struct {
		Reachable  bool
		TokenValid bool `json:"token_valid"`
		MAAS       *struct {
			Version, User string
			Racks         []probeRack `json:"rack_controllers"`
		}
		Problem string
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/maas-sites/"+pos[0]+"/probe", nil, &out, nil)
	if err != nil {
		return err
	}
	version, racks := "", ""
	if out.MAAS != nil {
		version, racks = out.MAAS.Version, rackSummary(out.MAAS.Racks)
	}
	if err := s.kv(raw, "reachable", yesNo(out.Reachable), "token_valid", yesNo(out.TokenValid), "version", version,
		"rack_controllers", racks, "problem", out.Problem); err != nil {
		return err
	}
	if !out.Reachable || !out.TokenValid {
		return outcomeError{"probe failed: " + out.Problem}
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// probeRack is a rack controller in a probe's answer.
type probeRack struct {
	Hostname, Version string
	Services          map[string]string
}

// rackSummary is "host version" per rack controller, with the services
// that are not running ("off" is by design), e.g.
// "rack1 3.6.5; rack2 3.6.4 (tftp dead)".
func rackSummary(rs []probeRack) string {
	parts := make([]string, 0, len(rs))
	for _, r := range rs {
		var bad []string
		for name, st := range r.Services {
			if st != "running" && st != "off" {
				bad = append(bad, name+" "+st)
			}
		}
		sort.Strings(bad)
		p := r.Hostname + " " + r.Version
		if len(bad) > 0 {
			p += " (" + strings.Join(bad, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}
