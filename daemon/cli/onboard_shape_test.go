package cli_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runShapes maps each stored run's host name to its GPU count and region.
func (d *daemon) runShapes() map[string][2]any {
	runs, err := d.store.ListRuns(context.Background(), lifecycle.RunFilter{})
	d.must(err)
	out := map[string][2]any{}
	for _, r := range runs {
		out[r.Hostname] = [2]any{r.GPUsTotal, r.RegionCode}
	}
	return out
}

// --gpus and --region reach the request; the daemon refuses a count that
// is not the SKU's and an unknown SKU (exit 6, naming the field), the CLI
// a count that is not positive or a blank region (exit 2); a CSV's
// optional gpus_total and region_code columns override the flags per row.
func TestOnboardGPUsAndRegion(t *testing.T) {
	d := startDaemon(t)
	base := []string{"onboard", "--site", d.site, "--sku", "h100.80g.8gpu"}
	refused := []struct {
		args       []string
		code       int
		wantStderr string
	}{
		{[]string{"--gpus", "4"}, cli.ExitInvalid, "field gpus_total"},
		{[]string{"--gpus", "0"}, cli.ExitUsage, "--gpus 0 is not a positive GPU count"},
		{[]string{"--region", " "}, cli.ExitUsage, `--region " " is blank`},
		{[]string{"--sku", "h100.80g.3gpu"}, cli.ExitInvalid, "h100.80g.3gpu is not in the SKU catalog; known: mi300x.192g.8gpu"},
	}
	for _, tt := range refused {
		r := d.cli("", append(append(base, "--hostname", "n0", "--ipmi-ip", "10.0.0.9"), tt.args...)...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.wantStderr) {
			t.Errorf("onboard %v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, tt.code, tt.wantStderr)
		}
	}
	if n := d.runCount(); n != 0 {
		t.Fatalf("refused onboardings submitted %d runs", n)
	}
	d.mustJSON(append(base, "--hostname", "s1", "--ipmi-ip", "10.0.1.1", "--gpus", "8", "--region", "dc1-east")...)
	csv := d.file("n.csv", "region_code,hostname,ipmi_ip,gpus_total\ndc1-west,c1,10.0.1.2,8\n,c2,10.0.1.3,\n")
	d.mustJSON(append(base, "--csv", csv, "--region", "dc1-north")...)
	plain := d.file("p.csv", "hostname,ipmi_ip\np1,10.0.1.4\n")
	d.mustJSON(append(base, "--csv", plain)...)
	want := map[string][2]any{"s1": {8, "dc1-east"}, "c1": {8, "dc1-west"}, "c2": {8, "dc1-north"}, "p1": {8, ""}}
	if diff := cmp.Diff(want, d.runShapes()); diff != "" {
		t.Errorf("runs' gpus_total and region_code (-want +got):\n%s", diff)
	}
	bad := d.file("b.csv", "hostname,ipmi_ip,gpus_total\nc3,10.0.1.5,eight\n")
	if r := d.cli("", append(base, "--csv", bad)...); r.code != cli.ExitUsage || !strings.Contains(r.stderr, `:2: gpus_total "eight" is not a positive GPU count`) {
		t.Errorf("CSV with a bad gpus_total: exit %d, stderr %q", r.code, r.stderr)
	}
	wrong := d.file("w.csv", "hostname,ipmi_ip,gpus_total\nc3,10.0.1.5,4\n")
	if r := d.cli("", append(base, "--csv", wrong)...); r.code != cli.ExitInvalid || !strings.Contains(r.stderr, "field nodes[0].gpus_total") {
		t.Errorf("CSV with another SKU's count: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := d.runCount(); n != 4 {
		t.Errorf("%d runs, want the 4 accepted", n)
	}
}

// node list and node get show the node's GPU count, region and port, in
// the table and in JSON.
func TestNodeShowsGPUsRegionPort(t *testing.T) {
	d := startDaemon(t)
	d.must(d.store.CreateNode(context.Background(), lifecycle.Node{ID: "n1", SiteID: d.site, Hostname: "c07u61", SKU: "h100.80g.8gpu",
		GPUsTotal: 8, RegionCode: "dc1-east", Port: 22, Status: lifecycle.NodeEnrolling}))
	r := d.cli("", "node", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NODE HOSTNAME STATE SKU GPUS REGION PORT" ||
		strings.Join(strings.Fields(lines[1]), " ") != "n1 c07u61 enrolling h100.80g.8gpu 8 dc1-east 22" {
		t.Errorf("node list: exit %d\n%s", r.code, r.stdout)
	}
	list := d.mustJSON("node", "list")["nodes"].([]any)[0].(map[string]any)
	if list["gpus_total"] != 8.0 || list["region_code"] != "dc1-east" || list["port"] != 22.0 {
		t.Errorf("node list -o json: %v", list)
	}
	r = d.cli("", "node", "get", "n1")
	for _, kv := range []string{"sku h100.80g.8gpu", "gpus_total 8", "region dc1-east", "port 22"} {
		if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), kv) {
			t.Errorf("node get does not show %q:\n%s", kv, r.stdout)
		}
	}
	got := d.mustJSON("node", "get", "n1")["node"].(map[string]any)
	if got["gpus_total"] != 8.0 || got["region_code"] != "dc1-east" || got["port"] != 22.0 {
		t.Errorf("node get -o json: %v", got)
	}
}
