//go:build integration

package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// aptArgs are the options of every apt-get run: non-interactive, keeping
// an edited conffile as an unattended operator's run does, and with
// dpkg's script tracing (--debug=2) so the test sees each maintainer
// script dpkg ran and its arguments.
var aptArgs = []string{
	"-y", "-q",
	"-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold",
	"-o", "Dpkg::Options::=--debug=2",
}

// apt runs apt-get verb args inside the root and returns the maintainer
// scripts of pkg that dpkg ran, as "script firstarg" (such as
// "postinst configure"), in order.
func (r *root) apt(pkg, verb string, args ...string) []string {
	r.t.Helper()
	out := r.run(append(append([]string{"apt-get", verb}, aptArgs...), args...)...)
	return scriptsRun(out, pkg)
}

// aptInstallFile copies a .deb into the root and installs it with
// apt-get, so that its Depends resolve from the Debian mirror.
func (r *root) aptInstallFile(pkg, deb string) []string {
	r.t.Helper()
	in := "/tmp/" + filepath.Base(deb)
	if out, err := exec.Command("cp", deb, r.path(in)).CombinedOutput(); err != nil {
		r.t.Fatalf("copy %s into the root: %v\n%s", deb, err, out)
	}
	return r.apt(pkg, "install", in)
}

var (
	// dpkg --debug=2: "D000002: fork/exec /var/lib/dpkg/info/p.postinst ( configure 1.0 )"
	// or, for the new preinst, ".../tmp.ci/preinst ( upgrade 1.0 )".
	forkRe = regexp.MustCompile(`fork/exec /var/lib/dpkg/(?:info/([^/ ]+)\.|tmp\.ci/)(preinst|postinst|prerm|postrm) \( (\S+)`)
	// "Preparing to unpack .../p_1.0_amd64.deb ...": the package whose
	// tmp.ci scripts run next.
	unpackRe = regexp.MustCompile(`Preparing to unpack \S*?([^/ _]+)_[^/ ]+\.deb`)
)

// scriptsRun picks the maintainer script runs of pkg out of apt output.
func scriptsRun(out, pkg string) []string {
	var runs []string
	unpacking := ""
	for _, line := range strings.Split(out, "\n") {
		if m := unpackRe.FindStringSubmatch(line); m != nil {
			unpacking = m[1]
		}
		m := forkRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		owner := m[1]
		if owner == "" {
			owner = unpacking
		}
		if owner == pkg {
			runs = append(runs, m[2]+" "+m[3])
		}
	}
	return runs
}

// status is dpkg's view of pkg: "install ok installed 1.0.0",
// "deinstall ok config-files 1.0.0", or "" when dpkg does not know it.
func (r *root) status(pkg string) string {
	out, err := r.command(nil, "dpkg-query", "-W", "-f", "${Status} ${Version}", pkg).Output()
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(out))
	if strings.HasPrefix(s, "unknown ok not-installed") {
		return ""
	}
	return s
}

// exists reports whether p exists inside the root (a dangling symlink
// counts). Intermediate symlinks of a Debian root (/lib) are relative.
func (r *root) exists(p string) bool {
	_, err := os.Lstat(r.path(p))
	return err == nil
}

// maintScripts lists the maintainer scripts a .deb carries, by name
// (preinst, postinst, prerm, postrm).
func maintScripts(t *testing.T, deb string) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "--control", deb, dir).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb --control %s: %v\n%s", deb, err, out)
	}
	have := map[string]bool{}
	for _, s := range []string{"preinst", "postinst", "prerm", "postrm"} {
		if _, err := os.Stat(filepath.Join(dir, s)); err == nil {
			have[s] = true
		}
	}
	return have
}

// expectScripts keeps the runs of want whose script the package has.
func expectScripts(have map[string]bool, want ...string) []string {
	var out []string
	for _, w := range want {
		if have[strings.Fields(w)[0]] {
			out = append(out, w)
		}
	}
	return out
}
