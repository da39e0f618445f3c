package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// quickDef completes every run in two stages, except hosts named bad-*,
// which fail for an operator.
func quickDef() *runner.Def {
	return &runner.Def{Name: "quick", Stages: []runner.StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: func(context.Context, *runner.Context) (runner.Outcome, error) {
			return runner.Done("loaded"), nil
		}},
		{Stage: lifecycle.StageConfigureStorage, Run: func(_ context.Context, c *runner.Context) (runner.Outcome, error) {
			if strings.HasPrefix(c.Run.Hostname, "bad-") {
				return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk"))
			}
			return runner.Done("storage set"), nil
		}},
	}}
}

// mustJSON runs a command with -o json, wants exit 0, and parses stdout.
func (d *daemon) mustJSON(args ...string) map[string]any {
	d.t.Helper()
	r := d.cli("", append(args, "-o", "json")...)
	if r.code != cli.ExitOK {
		d.t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		d.t.Fatalf("%v: output is not JSON: %v\n%s", args, err, r.stdout)
	}
	return out
}

func (d *daemon) runCount() int {
	runs, err := d.store.ListRuns(context.Background(), lifecycle.RunFilter{})
	d.must(err)
	return len(runs)
}

func TestOnboardCSVThenWatch(t *testing.T) {
	d := startDaemon(t)
	csv := d.file("nodes.csv", "hostname,ipmi_ip\nc07u43,10.176.16.128\n# spare\n\nC07U44, 10.176.16.129\n")
	out := d.mustJSON("onboard", "--site", d.site, "--sku", "mi300x.192g.8gpu", "--csv", csv)
	batch := out["batch_id"].(string)
	if n := len(out["onboardings"].([]any)); n != 2 {
		t.Fatalf("batch has %d onboardings, want 2", n)
	}
	r := d.cli("", "onboarding", "watch", "--batch", batch)
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "completed 2") || !strings.Contains(r.stdout, "c07u44") {
		t.Fatalf("watch: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	d.wantJournalBy("onboarding", out["onboardings"].([]any)[0].(map[string]any)["onboarding_id"].(string))
	single := d.mustJSON("onboard", "--site", d.site, "--sku", "mi300x.192g.8gpu", "--hostname", "bad-1", "--ipmi-ip", "10.0.0.9")
	r = d.cli("", "onboarding", "watch", single["onboarding_id"].(string), "-o", "json")
	if r.code != cli.ExitOutcome {
		t.Fatalf("watch of a failing run: exit %d, want %d\n%s", r.code, cli.ExitOutcome, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var last struct {
		Onboardings []struct{ Status, CurrentStage string }
		Done        bool
	}
	for _, l := range lines {
		if err := json.Unmarshal([]byte(l), &last); err != nil {
			t.Fatalf("watch line is not JSON: %v: %s", err, l)
		}
	}
	if !last.Done || last.Onboardings[0].Status != "failed_manual_intervention" {
		t.Errorf("last watch view = %+v", last)
	}
	rec := d.cli("", "onboarding", "cancel", single["onboarding_id"].(string))
	if rec.code != cli.ExitUsage {
		t.Errorf("recovery without --reason: exit %d, want 2", rec.code)
	}
	if rec = d.cli("", "onboarding", "cancel", single["onboarding_id"].(string), "--reason", "bad disk"); rec.code != cli.ExitOK {
		t.Errorf("cancel: exit %d %s", rec.code, rec.stderr)
	}
}

func TestOnboardCSVBadInput(t *testing.T) {
	d := startDaemon(t)
	tests := []struct {
		name, content, want string
	}{
		{"empty file", "", "empty file"},
		{"header only", "hostname,ipmi_ip\n", "no rows"},
		{"missing column", "hostname\nc1\n", `:1: header lacks column "ipmi_ip"`},
		{"unknown column", "hostname,ipmi_ip,pxe_mac\nc1,10.0.0.1,aa\n", `:1: bad header column "pxe_mac"`},
		{"repeated column", "hostname,hostname\nc1,c2\n", `:1: bad header column "hostname"`},
		{"positional, no header", "c1,10.0.0.1\n", `:1: bad header column "c1"`},
		{"bad hostname", "hostname,ipmi_ip\nc1,10.0.0.1\nc_2,10.0.0.2\n", `:3: hostname "c_2"`},
		{"bad ip", "hostname,ipmi_ip\nc1,10.0.0.1\nc2,10.0.0.256\n", `:3: ipmi_ip "10.0.0.256"`},
		{"too few fields", "hostname,ipmi_ip\nc1\n", ":2: 1 fields, want 2"},
		{"duplicate hostname", "hostname,ipmi_ip\nc1,10.0.0.1\nC1,10.0.0.2\n", ":3: hostname c1 repeats line 2"},
		{"duplicate ip", "hostname,ipmi_ip\nc1,10.0.0.1\nc2,10.0.0.1\n", ":3: ipmi_ip 10.0.0.1 repeats line 2"},
		{"bad quoting", "hostname,ipmi_ip\n\"c1,10.0.0.1\n", ":2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := d.file("n.csv", tt.content)
			r := d.cli("", "onboard", "--site", d.site, "--sku", "s", "--csv", path)
			if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
	if n := d.runCount(); n != 0 {
		t.Errorf("bad CSV files submitted %d runs", n)
	}
}

func TestRoCEImport(t *testing.T) {
	d := startDaemon(t)
	good := d.file("roce.csv", "hostname,interface,ipv4_cidr\nc07u31,enp28s0np0,172.30.9.61/31\nc07u31,enp29s0np0,172.29.1.219/31\n")
	out := d.mustJSON("roce", "import", d.site, "--csv", good)
	if n := len(out["items"].([]any)); n != 2 {
		t.Fatalf("imported %d items, want 2", n)
	}
	for name, tt := range map[string]struct{ content, want string }{
		"bad cidr":      {"hostname,interface,ipv4_cidr\nh1,eth0,10.0.0.1/31\nh1,eth1,10.0.0.999/31\n", ":3:"},
		"too wide":      {"hostname,interface,ipv4_cidr\nh1,eth0,10.0.0.0/8\n", ":2:"},
		"duplicate":     {"hostname,interface,ipv4_cidr\nh1,eth0,10.0.0.1/31\nH1,eth0,10.0.0.3/31\n", ":3: h1 eth0 repeats line 2"},
		"missing col":   {"hostname,ipv4_cidr\nh1,10.0.0.1/31\n", `:1: header lacks column "interface"`},
		"no header row": {"h1,eth0,10.0.0.1/31\n", ":1: bad header column"},
	} {
		t.Run(name, func(t *testing.T) {
			r := d.cli("", "roce", "import", d.site, "--csv", d.file("r.csv", tt.content))
			if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
	items, err := d.store.ListRoCEAssignments(context.Background(), d.site, "")
	d.must(err)
	if len(items) != 2 {
		t.Errorf("%d assignments stored, want the 2 good ones", len(items))
	}
}

func TestCredentialsFromStdinAndFiles(t *testing.T) {
	d := startDaemon(t)
	key := d.file("key", "ck:tk:good-secret\n")
	r := d.cli("ipmi-secret\n", "site", "credentials", d.site, "--maas-key-file", key, "--power-user", "root", "--power-password-file", "-")
	if r.code != cli.ExitOK {
		t.Fatalf("credentials: exit %d %s", r.code, r.stderr)
	}
	tok, pow, _ := lifecycle.SiteVaultPaths(d.site)
	want := map[string]map[string]string{tok: {"token": "ck:tk:good-secret"}, pow: {"user": "root", "pass": "ipmi-secret"}}
	if diff := cmp.Diff(want, d.vault.data); diff != "" {
		t.Errorf("vault (-want +got):\n%s", diff)
	}
	if strings.Contains(r.stdout+r.stderr, "good-secret") || strings.Contains(r.stdout+r.stderr, "ipmi-secret") {
		t.Errorf("the CLI printed a secret: %s %s", r.stdout, r.stderr)
	}
	for name, args := range map[string][]string{
		"key missing":        {"site", "credentials", d.site},
		"two from stdin":     {"site", "credentials", d.site, "--maas-key-file", "-", "--deploy-password-file", "-"},
		"user without pass":  {"site", "credentials", d.site, "--maas-key-file", key, "--power-user", "root"},
		"secret as argument": {"site", "credentials", d.site, "--maas-key", "ck:tk:good-secret"},
	} {
		if r := d.cli("", args...); r.code != cli.ExitUsage {
			t.Errorf("%s: exit %d, want 2", name, r.code)
		}
	}
	if r := d.cli("", "site", "credentials", d.site, "--maas-key-file", d.file("bad", "ck:tk:wrong")); r.code != cli.ExitInvalid {
		t.Errorf("refused key: exit %d, want %d", r.code, cli.ExitInvalid)
	}
	if r := d.cli("", "site", "probe", d.site); r.code != cli.ExitOK || !strings.Contains(r.stdout, "3.6.5") ||
		!strings.Contains(r.stdout, "rack_controllers") || !strings.Contains(r.stdout, "maas-region-1 3.6.5 (tftp dead)") {
		t.Errorf("probe: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	hook := d.file("hook", "whsec-0123456789abcdef\n")
	if r := d.cli("", "site", "credentials", d.site, "--maas-key-file", key, "--webhook-secret-file", hook); r.code != cli.ExitOK {
		t.Fatalf("webhook secret: exit %d %s", r.code, r.stderr)
	}
	if got := d.vault.data[lifecycle.WebhookSecretVaultPath(d.site)]["secret"]; got != "whsec-0123456789abcdef" {
		t.Errorf("webhook secret in Vault = %q", got)
	}
}
