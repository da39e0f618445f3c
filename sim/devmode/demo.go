package devmode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// DemoSize is how many machines the demo batch onboards.
const DemoSize = 8

// Banner tells the newcomer where everything is.
func (s *Site) Banner(w io.Writer, adminAddr, stateDir string) {
	exe := "bin/maas-sidecar"
	env := "MAAS_SIDECAR_ADDR=" + adminAddr + " MAAS_SIDECAR_TOKEN=$(cat " + filepath.Join(stateDir, "admin.token") + ")"
	fmt.Fprintf(w, `
maas-sidecar dev mode: a simulated MAAS site with %d GPU servers
  admin API    http://%s/api/v1/admin/   (OpenAPI: /api/v1/openapi.json)
  console      http://%s/console/   (sign in with the admin token)
  admin token  %s
  metrics      http://%s/metrics
  MAAS (sim)   %s
  region DB    %s
try, in another terminal:
  export %s
  %s node list
  %s onboarding list --site %s
  %s onboard --site %s --sku h100.80g.8gpu --hostname %s --ipmi-ip %s
  curl -s -X POST %s_sim/machines/<system_id>/release   # an out-of-band release
  curl -s -X POST %s_sim/booted/<hostname>/residue -d '{"xid":48}'   # an Xid 48 in the tenancy
  %s node decommission <node_id> --mode soft_reset --storage-cleanup all --reason "tenant turnover"
Ctrl-C stops everything.

`, len(s.Hosts), adminAddr, adminAddr, filepath.Join(stateDir, "admin.token"), adminAddr, s.URL, s.regionDBLine(), env, exe, exe, SiteID,
		exe, SiteID, s.Hosts[len(s.Hosts)-1].Hostname, s.Hosts[len(s.Hosts)-1].IPMI, strings.TrimSuffix(s.URL, "MAAS/"), strings.TrimSuffix(s.URL, "MAAS/"), exe)
}

// regionDBLine is the banner's region database line.
func (s *Site) regionDBLine() string {
	if s.db == nil {
		return "none: the LISTEN feed is off (webhooks and the events cursor only)"
	}
	return s.RegionDBDSN() + "   (PostgreSQL: the dev site LISTENs to MAAS's notifications)"
}

// Demo onboards the first DemoSize hosts as one batch through the admin
// API and shows its live progress until every run has settled.
func (s *Site) Demo(ctx context.Context, w io.Writer, adminAddr, stateDir string) error {
	tok, err := os.ReadFile(filepath.Join(stateDir, "admin.token"))
	if err != nil {
		return err
	}
	c := &adminclient.Client{Base: "http://" + adminAddr, Token: strings.TrimSpace(string(tok)), HTTP: &http.Client{Timeout: 30 * time.Second}}
	var nodes []map[string]string
	for _, h := range s.Hosts[:min(DemoSize, len(s.Hosts))] {
		nodes = append(nodes, map[string]string{"hostname": h.Hostname, "ipmi_ip": h.IPMI})
	}
	var out struct {
		BatchID string `json:"batch_id"`
	}
	body := map[string]any{"site_id": SiteID, "profile_id": "default", "sku_id": "h100.80g.8gpu", "nodes": nodes}
	if _, err := c.Call(ctx, http.MethodPost, "/api/v1/admin/onboardings/batch", body, &out, nil); err != nil {
		return err
	}
	fmt.Fprintf(w, "onboarding %d machines as batch %s\n", len(nodes), out.BatchID)
	code := cli.Main(ctx, []string{"onboarding", "watch", "--batch", out.BatchID, "--addr", adminAddr},
		cli.Env{Stdout: w, Stderr: w, StateDir: stateDir, Interval: time.Second})
	if code != 0 {
		return fmt.Errorf("the demo batch did not complete (exit %d)", code)
	}
	fmt.Fprintf(w, "demo batch complete: %d nodes active. The daemon keeps serving; Ctrl-C stops it.\n", len(nodes))
	if err := s.tenancy(nodes); err != nil {
		return err
	}
	s.suggestTurnover(ctx, w, c)
	return nil
}

// tenancy leaves a tenant's residue (simhost.DefaultResidue) on each
// demo host once it passed its onboarding acceptance and went active, for
// a turnover to find and clear.
func (s *Site) tenancy(nodes []map[string]string) error {
	var r fakehost.Residue
	if err := json.Unmarshal([]byte(simhost.DefaultResidue), &r); err != nil {
		return fmt.Errorf("devmode: tenancy: %w", err)
	}
	for _, n := range nodes {
		err := s.up.withRoot(n["hostname"], func(root string) error {
			_, err := fakehost.Inject(root, r)
			return err
		})
		if err != nil && !errors.Is(err, fakehost.ErrNotBooted) {
			return fmt.Errorf("devmode: tenancy on %s: %w", n["hostname"], err)
		}
	}
	return nil
}

// suggestTurnover prints one decommission command to try on an active
// demo node: its simulated host carries tenant residue for the scrub and
// the clean validation to find.
func (s *Site) suggestTurnover(ctx context.Context, w io.Writer, c *adminclient.Client) {
	var out struct {
		Nodes []struct{ ID, Status string } `json:"nodes"`
	}
	if _, err := c.Call(ctx, http.MethodGet, "/api/v1/admin/nodes?site_id="+SiteID+"&status=active", nil, &out, nil); err != nil || len(out.Nodes) == 0 {
		return
	}
	fmt.Fprintf(w, `try a tenant turnover (user revocation, storage cleanup, GPU scrub, clean validation):
  bin/maas-sidecar node decommission %s --mode soft_reset --storage-cleanup all --reason "tenant turnover"
  bin/maas-sidecar decommission watch <decommission_id>   # then: decommission get <id> -o json for the evidence
`, out.Nodes[0].ID)
}
