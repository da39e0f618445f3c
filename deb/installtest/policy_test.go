//go:build integration

package installtest

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPolicyForbidsStart installs and removes both packages in a root
// where the maintainer scripts see a running systemd (/run/systemd/system
// exists), so they ask to start and stop their units; policy-rc.d
// answers 101, as in an image build, and nothing may start. The log
// shows each request reached policy-rc.d.
func TestPolicyForbidsStart(t *testing.T) {
	t.Parallel()
	set := debs(t, newVersion)
	r := newRoot(t)
	if err := os.MkdirAll(r.path("/run/systemd/system"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.aptInstallFile(sidecarPkg, set.sidecar)
	r.aptInstallFile(agentPkg, set.agent)
	r.assertNothingRuns("install under policy-rc.d")
	r.apt(sidecarPkg, "remove", sidecarPkg, agentPkg)
	r.assertNothingRuns("remove under policy-rc.d")
	want := []string{
		"gpuaas-node-agent.service restart", "gpuaas-node-agent.service stop",
		"maas-sidecar-notify-forward.service stop",
		"maas-sidecar.service restart", "maas-sidecar.service stop",
	}
	var got []string
	if r.exists(policyLog) {
		for _, l := range strings.Split(r.read(policyLog), "\n") {
			// Dependencies (ipmitool's ipmievd) ask too; only ours count here.
			if strings.HasPrefix(l, sidecarPkg+".") || strings.HasPrefix(l, fwdUnit+" ") || strings.HasPrefix(l, agentPkg+".") {
				got = append(got, l)
			}
		}
	}
	sort.Strings(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("policy-rc.d requests (-want +got):\n%s", d)
	}
}
