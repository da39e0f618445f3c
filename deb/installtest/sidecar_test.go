//go:build integration

package installtest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSidecarLifecycle takes the maas-sidecar package through an
// operator's whole life of it in a root of each Debian release: install
// of an older version (the daemon then answers /readyz as its packaged
// user against the installed config), the previous release's state and
// a config edit, upgrade (edit kept, state kept and migrated, daemon
// ready again on bbolt and on a one-member dqlite store), remove
// (config, state and user kept) and purge (all gone). Every maintainer
// script runs inside the root, and none starts a service.
func TestSidecarLifecycle(t *testing.T) {
	t.Parallel()
	for _, rel := range releases {
		t.Run(rel.name, func(t *testing.T) {
			t.Parallel()
			sidecarLifecycle(t, rel.suite)
		})
	}
}

// sidecarLifecycle is TestSidecarLifecycle in a root of suite.
func sidecarLifecycle(t *testing.T, suite string) {
	old, cur := debs(t, oldVersion), debs(t, newVersion)
	r := newRootOn(t, suite)
	have := maintScripts(t, cur.sidecar)
	ran := map[string]bool{}
	step := func(name string, want []string, got []string) {
		t.Helper()
		if d := cmp.Diff(expectScripts(have, want...), got); d != "" {
			t.Errorf("%s: maintainer scripts run (-want +got):\n%s", name, d)
		}
		for _, s := range got {
			ran[strings.Fields(s)[0]] = true
		}
		r.assertNothingRuns(name)
	}

	step("install", []string{"preinst install", "postinst configure"},
		r.aptInstallFile(sidecarPkg, old.sidecar))
	r.checkInstalled(oldVersion)

	edited, adminAddr := r.editConfig()
	r.serveReady(adminAddr, sidecarConfig, sidecarState)

	r.installV0State()
	if out, code := r.migrateCheck(); code != 1 || !strings.Contains(out, "schema version 0") {
		t.Errorf("migrate --check on the previous release's state: exit %d, want 1 and schema version 0:\n%s", code, out)
	}

	step("upgrade", []string{"prerm upgrade", "preinst upgrade", "postrm upgrade", "postinst configure"},
		r.aptInstallFile(sidecarPkg, cur.sidecar))
	r.checkInstalled(newVersion)
	if got := r.read(sidecarConfig); got != edited {
		t.Errorf("upgrade lost the config edit (-want +got):\n%s", cmp.Diff(edited, got))
	}
	if got := r.read(sidecarConfig + ".dpkg-dist"); !strings.Contains(got, retentionLines) {
		t.Errorf("the new release's conffile is not beside the operator's as config.yaml.dpkg-dist:\n%s", got)
	}
	if d := cmp.Diff(recordCounts(t, v0Fixture), recordCounts(t, r.path(stateFile))); d != "" {
		t.Errorf("upgrade lost records of the previous release's state (-fixture +upgraded):\n%s", d)
	}
	if out, code := r.migrateCheck(); code != 0 || !strings.Contains(out, "up to date") {
		t.Errorf("after upgrade, migrate --check: exit %d, want 0 and up to date (postinst did not migrate?):\n%s", code, out)
	}
	r.serveReady(adminAddr, sidecarConfig, sidecarState)
	r.serveOnDqlite()

	step("remove", []string{"prerm remove", "postrm remove"}, r.apt(sidecarPkg, "remove", sidecarPkg))
	r.checkRemoved(edited)

	step("purge", []string{"postrm purge"}, r.apt(sidecarPkg, "purge", sidecarPkg))
	r.checkPurged()

	for s := range have {
		if !ran[s] {
			t.Errorf("the package's %s script never ran", s)
		}
	}
	if !have["postinst"] || !have["postrm"] {
		t.Errorf("the package has maintainer scripts %v, want at least postinst and postrm (user, state, purge)", have)
	}
}

// installV0State replaces the store file with the previous release's
// state, owned by the packaged user as the daemon would have left it.
func (r *root) installV0State() {
	r.t.Helper()
	b, err := os.ReadFile(v0Fixture)
	if err != nil {
		r.t.Fatalf("the store's v0 fixture: %v", err)
	}
	u, _ := r.user(sidecarUser)
	r.write(stateFile, string(b), 0o600)
	if err := os.Chown(r.path(stateFile), u.uid, u.gid); err != nil {
		r.t.Fatal(err)
	}
}

// migrateCheck runs the installed `maas-sidecar migrate --check` as the
// packaged user and returns its output and exit code.
func (r *root) migrateCheck() (string, int) {
	r.t.Helper()
	out, err := r.runAs(sidecarUser, sidecarBin, "migrate", "--check",
		"--config", sidecarConfig, "--state-dir", sidecarState)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &exit):
		return out, exit.ExitCode()
	}
	r.t.Fatalf("migrate --check: %v", err)
	return out, -1
}
