//go:build integration

package installtest

import (
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// checkInstalled checks what install and upgrade must leave: the package
// at version, a binary that runs in the root and has the dqlite store,
// its system user and group, the 0700 state directory owned by the user,
// the config as a conffile and the unit enabled.
func (r *root) checkInstalled(version string) {
	r.t.Helper()
	if got := r.status(sidecarPkg); got != "install ok installed "+version {
		r.t.Errorf("dpkg status = %q, want installed %s", got, version)
	}
	if out := r.run(sidecarBin, "version"); !strings.HasPrefix(out, version+"\n") || !strings.Contains(out, "\nstores: bolt, dqlite\n") {
		r.t.Errorf("maas-sidecar version in the root printed %q, want %s and the line \"stores: bolt, dqlite\"", out, version)
	}
	u, ok := r.user(sidecarUser)
	if !ok {
		r.t.Fatalf("no %s user after install", sidecarUser)
	}
	gid, ok := r.group(sidecarUser)
	want := account{name: sidecarUser, uid: u.uid, gid: gid, home: sidecarState, shell: "/usr/sbin/nologin"}
	if !ok || u != want || u.uid >= 1000 || u.uid == 0 {
		r.t.Errorf("user = %+v (group found %v), want a system user %+v", u, ok, want)
	}
	if mode, uid, gid := r.owner(sidecarState); mode.Perm() != 0o700 || !mode.IsDir() || uid != u.uid || gid != u.gid {
		r.t.Errorf("%s: mode %v owner %d:%d, want drwx------ %d:%d", sidecarState, mode, uid, gid, u.uid, u.gid)
	}
	conffiles, _ := r.command(nil, "dpkg-query", "-W", "-f", "${Conffiles}", sidecarPkg).Output()
	if !strings.Contains(string(conffiles), " "+sidecarConfig+" ") {
		r.t.Errorf("%s is not a conffile; conffiles:\n%s", sidecarConfig, conffiles)
	}
	for _, p := range []string{sidecarBin, "/lib/systemd/system/maas-sidecar.service", sidecarConfig} {
		if !r.exists(p) {
			r.t.Errorf("%s missing after install", p)
		}
	}
	if out, _ := r.try("systemctl", "is-enabled", "maas-sidecar.service"); strings.TrimSpace(out) != "enabled" {
		r.t.Errorf("systemctl is-enabled maas-sidecar.service = %q, want enabled", out)
	}
}

// editConfig makes the operator's edit of the installed config: the two
// listeners on free loopback ports. It returns the edited file and the
// admin address.
func (r *root) editConfig() (string, string) {
	r.t.Helper()
	admin, agent := freeport.Addr(r.t), freeport.Addr(r.t)
	edited := r.read(sidecarConfig) + fmt.Sprintf(
		"\n# Edited by the operator.\nadmin_listen: %s\nagent:\n  listen: %s\n", admin, agent)
	mode, _, _ := r.owner(sidecarConfig)
	r.write(sidecarConfig, edited, mode.Perm())
	return edited, admin
}

// checkRemoved checks what remove must leave: config (as edited), state
// and user kept, binary and unit gone.
func (r *root) checkRemoved(edited string) {
	r.t.Helper()
	if got := r.status(sidecarPkg); !strings.HasPrefix(got, "deinstall ok config-files ") {
		r.t.Errorf("dpkg status after remove = %q, want config-files", got)
	}
	for _, p := range []string{sidecarBin, "/lib/systemd/system/maas-sidecar.service"} {
		if r.exists(p) {
			r.t.Errorf("%s still there after remove", p)
		}
	}
	if !r.exists(sidecarConfig) || r.read(sidecarConfig) != edited {
		r.t.Errorf("remove did not keep the edited %s", sidecarConfig)
	}
	if !r.exists(stateFile) {
		r.t.Errorf("remove deleted the state %s", stateFile)
	}
	if _, ok := r.user(sidecarUser); !ok {
		r.t.Errorf("remove deleted the %s user", sidecarUser)
	}
}

// checkPurged checks that purge leaves nothing of the package: no state,
// config, user or group, and dpkg no longer knows it.
func (r *root) checkPurged() {
	r.t.Helper()
	if got := r.status(sidecarPkg); got != "" {
		r.t.Errorf("dpkg status after purge = %q, want unknown", got)
	}
	for _, p := range []string{sidecarState, "/etc/maas-sidecar"} {
		if r.exists(p) {
			r.t.Errorf("%s still there after purge", p)
		}
	}
	if _, ok := r.user(sidecarUser); ok {
		r.t.Errorf("the %s user is still there after purge", sidecarUser)
	}
	if _, ok := r.group(sidecarUser); ok {
		r.t.Errorf("the %s group is still there after purge", sidecarUser)
	}
}
