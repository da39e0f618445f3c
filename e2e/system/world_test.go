//go:build e2e

package system

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// world is one site: Vault, the simulator and the daemon, each a process.
type world struct {
	t      testing.TB
	sim    *sim
	daemon *daemon
	site   string
}

// newWorld starts everything and sets the site up through the CLI.
func newWorld(t testing.TB, o simOptions) *world {
	t.Helper()
	vaultBin := requireBinaries(t)
	w := &world{t: t, sim: startSim(t, o), daemon: newDaemon(t, startVault(t, vaultBin))}
	w.daemon.start()
	w.createSite()
	return w
}

// createSite creates the site, writes its credentials (the MAAS key from
// stdin, the BMC and deploy passwords from files), proves the key with a
// probe and lets the whole batch run at once.
func (w *world) createSite() {
	d := w.daemon
	var site struct{ ID string }
	d.json(&site, "site", "create", "--name", "dc1", "--region", "dc1", "--url", w.sim.url,
		"--pxe-iface", "ens19", "--vlan", "0", "--node-pxe-iface", "eno8303")
	if site.ID == "" {
		w.t.Fatal("site create returned no id")
	}
	w.site = site.ID
	out := d.ok(apiKey, "site", "credentials", site.ID, "--maas-key-file", "-",
		"--power-user", "root", "--power-password-file", file(w.t, "bmc", "bmc-secret-1"),
		"--deploy-password-file", file(w.t, "deploy", "deploy-secret-1"), "--reason", "e2e setup")
	if !strings.Contains(out, "3.6") {
		w.t.Fatalf("site credentials did not report the MAAS version:\n%s", out)
	}
	d.ok("", "site", "probe", site.ID)
	d.ok("", "policy", "set", site.ID, "batch_max_parallel=20", "--reason", "e2e: whole batch at once")
}

// onboard submits hosts as one batch through `onboard --csv` and returns
// the batch id and the onboarding id of each host.
func (w *world) onboard(hosts ...string) (string, map[string]string) {
	w.t.Helper()
	var b strings.Builder
	b.WriteString("hostname,ipmi_ip\n")
	for _, h := range hosts {
		m, ok := w.sim.machines[h]
		if !ok {
			w.t.Fatalf("no simulated machine %s", h)
		}
		fmt.Fprintf(&b, "%s,%s\n", h, m.bmc)
	}
	var out struct {
		BatchID     string `json:"batch_id"`
		Onboardings []struct {
			Hostname string
			ID       string `json:"onboarding_id"`
		}
	}
	w.daemon.json(&out, "onboard", "--site", w.site, "--sku", "h100.80g.8gpu", "--csv", file(w.t, "batch.csv", b.String()))
	ids := map[string]string{}
	for _, o := range out.Onboardings {
		ids[o.Hostname] = o.ID
	}
	if out.BatchID == "" || len(ids) != len(hosts) {
		w.t.Fatalf("onboard: batch %q with %d onboardings for %d hosts", out.BatchID, len(ids), len(hosts))
	}
	return out.BatchID, ids
}

// runView is an onboarding as `onboarding list -o json` shows it.
type runView struct {
	ID, Hostname, Status string
	Stage                string `json:"current_stage"`
	FailureClass         string `json:"failure_class"`
	Recommended          string `json:"recommended_action"`
	Error                string `json:"error_message"`
	MaasSystemID         string `json:"maas_system_id"`
	NodeID               string `json:"node_id"`
}

// runs lists the batch's onboardings by hostname.
func (w *world) runs(batch string) map[string]runView {
	var out struct{ Onboardings []runView }
	w.daemon.json(&out, "onboarding", "list", "--batch", batch)
	m := map[string]runView{}
	for _, r := range out.Onboardings {
		m[r.Hostname] = r
	}
	return m
}

// nodes lists the site's nodes: hostname -> status.
func (w *world) nodes() map[string]string {
	var out struct {
		Nodes []struct{ Hostname, Status string }
	}
	w.daemon.json(&out, "node", "list", "--site", w.site)
	m := map[string]string{}
	for _, n := range out.Nodes {
		m[n.Hostname] = n.Status
	}
	return m
}

// hostnames returns gpu-NNN for each n.
func hostnames(ns ...int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprintf("gpu-%03d", n)
	}
	sort.Strings(out)
	return out
}
