//go:build e2e

package system

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

// silentBMC is a UDP socket on the IPMI port that takes every packet and
// never answers: a BMC whose network stack is up and whose IPMI service
// hangs.
func silentBMC(t *testing.T, ip string) {
	t.Helper()
	c, err := net.ListenPacket("udp", net.JoinHostPort(ip, "623"))
	if err != nil {
		t.Fatalf("silent BMC on %s:623: %v", ip, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := c.ReadFrom(buf); err != nil {
				return
			}
		}
	}()
}

// TestSilentBMCTimesOutByItsDeadlineParksAsBMCPowerFailureWhileOtherRunsComplete:
// a host MAAS refuses to create (400), so the run PXE-boots it through
// its BMC with ipmitool, and the BMC takes the packets and never
// answers. With ipmi.timeout 1s, each power call gives up by its
// deadline: the healthy runs of the same batch complete while it is
// still trying (the runner is not blocked), and the run lands in
// failed_manual_intervention as bmc_power_failure with retry_stage after
// its three attempts, within the bound the deadlines give; MAAS got no
// side effect for any machine but one deploy each for the healthy ones.
func TestSilentBMCTimesOutByItsDeadlineParksAsBMCPowerFailureWhileOtherRunsComplete(t *testing.T) {
	vaultBin := requireBinaries(t)
	const bmcIP = "127.0.0.2"
	silentBMC(t, bmcIP)
	w := &world{t: t, sim: startSim(t, simOptions{machines: 2, speed: 600}), daemon: newDaemon(t, startVault(t, vaultBin))}
	appendConfig(t, w.daemon.config, "ipmi:\n  timeout: 1s\n")
	w.daemon.start()
	w.createSite()
	w.sim.control("faults/ops", map[string]any{"op": "POST machines", "error_rate": 1.0, "status": 400})
	csv := "hostname,ipmi_ip\n"
	for _, h := range hostnames(1, 2) {
		csv += fmt.Sprintf("%s,%s\n", h, w.sim.machines[h].bmc)
	}
	csv += "gpu-new," + bmcIP + "\n"
	var out struct {
		BatchID string `json:"batch_id"`
	}
	start := time.Now()
	w.daemon.json(&out, "onboard", "--site", w.site, "--sku", "h100.80g.8gpu", "--csv", file(t, "batch.csv", csv))
	healthy := hostnames(1, 2)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		runs := w.runs(out.BatchID)
		if runs["gpu-001"].Status == "completed" && runs["gpu-002"].Status == "completed" {
			if s := runs["gpu-new"].Status; s != "running" {
				t.Fatalf("gpu-new is %s when the healthy runs completed; want it still trying its BMC", s)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the healthy runs did not complete within 30s beside a silent BMC: %+v", runs)
		}
	}
	// Three stage attempts of three 1s power calls each, with the ipmi
	// (1s, 2s) and runner (under 2s, under 4s) backoffs: under 25s.
	for deadline := start.Add(40 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		r := w.runs(out.BatchID)["gpu-new"]
		if r.Status == "failed_manual_intervention" {
			if r.FailureClass != "bmc_power_failure" || r.Recommended != "retry_stage" || r.Stage != "create_or_find_in_maas" {
				t.Fatalf("gpu-new: %s/%s at %s (%s); want bmc_power_failure/retry_stage at create_or_find_in_maas",
					r.FailureClass, r.Recommended, r.Stage, r.Error)
			}
			t.Logf("gpu-new parked after %v: %s", time.Since(start).Round(time.Second), r.Error)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gpu-new is %s at %s 40s after submission; want failed_manual_intervention (the BMC's deadlines passed)", r.Status, r.Stage)
		}
	}
	want := map[string]map[string]int{}
	for _, h := range healthy {
		want[h] = map[string]int{"deploy": 1}
	}
	w.checkEffects(want)
}

// appendConfig adds YAML keys to the daemon's config file.
func appendConfig(t *testing.T, path, yaml string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(yaml); err != nil {
		t.Fatal(err)
	}
}
