//go:build integration

package installtest

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	fwdUnit = "maas-sidecar-notify-forward.service"
	// fwdLink is what `systemctl enable` makes for the forwarder.
	fwdLink = "/etc/systemd/system/multi-user.target.wants/" + fwdUnit
	// fwdState is deb-systemd-helper's record of the forwarder's links.
	fwdState = "/var/lib/systemd/deb-systemd-helper-enabled/" + fwdUnit + ".dsh-also"
)

// TestForwarderLifecycle takes the forwarder's unit, shipped but not
// enabled, through the package's life in a root where the maintainer
// scripts see a running systemd and policy-rc.d records and refuses what
// they ask: install leaves it disabled; the admin enables it; an upgrade
// keeps it enabled and asks to try-restart it (a running forwarder moves
// to the new binary, a stopped one stays stopped); remove asks to stop
// it; purge removes its enablement link and deb-systemd-helper's record.
func TestForwarderLifecycle(t *testing.T) {
	t.Parallel()
	old, cur := debs(t, oldVersion), debs(t, newVersion)
	r := newRoot(t)
	if err := os.MkdirAll(r.path("/run/systemd/system"), 0o755); err != nil {
		t.Fatal(err)
	}
	// --root: with /run/systemd/system present systemctl would ask the
	// (absent) manager; offline it reads the unit files and links.
	isEnabled := func() string {
		out, _ := r.try("systemctl", "--root=/", "is-enabled", fwdUnit)
		return strings.TrimSpace(out)
	}

	r.aptInstallFile(sidecarPkg, old.sidecar)
	if got := isEnabled(); got != "disabled" || r.exists(fwdLink) {
		t.Fatalf("after install the forwarder is %q (link there: %v), want disabled", got, r.exists(fwdLink))
	}
	r.run("systemctl", "--root=/", "enable", fwdUnit)

	r.aptInstallFile(sidecarPkg, cur.sidecar)
	if got := isEnabled(); got != "enabled" {
		t.Errorf("after upgrade the forwarder is %q, want the admin's enabled kept", got)
	}
	r.apt(sidecarPkg, "remove", sidecarPkg)
	r.assertNothingRuns("upgrade and remove under policy-rc.d")
	r.apt(sidecarPkg, "purge", sidecarPkg)
	for _, p := range []string{fwdLink, fwdState} {
		if r.exists(p) {
			t.Errorf("%s still there after purge", p)
		}
	}

	var got []string
	if r.exists(policyLog) {
		for _, l := range strings.Split(r.read(policyLog), "\n") {
			if strings.HasPrefix(l, fwdUnit+" ") {
				got = append(got, l)
			}
		}
	}
	if d := cmp.Diff([]string{fwdUnit + " try-restart", fwdUnit + " stop"}, got); d != "" {
		t.Errorf("policy-rc.d requests for the forwarder (-want +got):\n%s", d)
	}
}
