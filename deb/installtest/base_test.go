//go:build integration

package installtest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mirror is the Debian archive the bases come from (and their apt
// sources point at), the one the build host's apt uses.
const mirror = "http://deb.debian.org/debian"

// baseFresh is how long a cached base's package lists are used before an
// apt-get update refreshes them.
const baseFresh = 24 * time.Hour

// release is a Debian release the packages are installed into.
type release struct {
	suite, name string
}

// releases are the Debian releases the lifecycle tests install into:
// the package's oldest glibc (Debian 11 has Ubuntu 20.04's 2.31), the
// build host's release and the newest. Each has one cached base.
var releases = []release{
	{"bullseye", "Debian 11"},
	{"bookworm", "Debian 12"},
	{"trixie", "Debian 13"},
}

// defaultSuite is the release of the tests that check the packages'
// behaviour rather than where they install.
const defaultSuite = "bookworm"

// baseInclude is what the tests need beyond minbase, and what every
// machine the packages go to has: curl for the cloud-init install script,
// systemd for systemctl. Nothing the packages' own scripts need (adduser)
// is here, so a missing Depends fails the install.
var baseInclude = []string{"curl", "systemd"}

// baseRoot returns the cached debootstrapped root of suite, building it
// on first use, and the release of a shared lock on it that keeps it
// unchanged while the caller copies it. The cache key is the suite,
// mirror and include list; the lock file also keeps concurrent test
// processes from building or refreshing it at once.
func baseRoot(t *testing.T, suite string) (string, func()) {
	t.Helper()
	requireHost(t)
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("install test: no cache directory: %v", err)
	}
	sum := sha256.Sum256([]byte(suite + " " + mirror + " " + strings.Join(baseInclude, ",")))
	dir := filepath.Join(cache, "maas-sidecar", "installtest")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, suite+"-"+hex.EncodeToString(sum[:])[:12])
	lock := root + ".lock"
	func() {
		unlock := lockFile(t, lock, syscall.LOCK_EX)
		defer unlock()
		ensureBase(t, suite, root)
	}()
	return root, lockFile(t, lock, syscall.LOCK_SH)
}

// ensureBase builds the base at root if it is missing, or refreshes its
// package lists if they are older than baseFresh.
func ensureBase(t *testing.T, suite, root string) {
	t.Helper()
	stamp := root + ".ok"
	st, err := os.Stat(stamp)
	switch {
	case err != nil:
		buildBase(t, suite, root)
	case time.Since(st.ModTime()) > baseFresh:
		refreshBase(t, root)
	default:
		return
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// buildBase debootstraps a fresh base into root (through a temporary
// directory, so a failed build leaves nothing that looks complete).
func buildBase(t *testing.T, suite, root string) {
	t.Helper()
	tmp := root + ".tmp"
	_ = os.RemoveAll(tmp)
	_ = os.RemoveAll(root)
	start := time.Now()
	out, err := exec.Command("debootstrap", "--variant=minbase",
		"--include="+strings.Join(baseInclude, ","), suite, tmp, mirror).CombinedOutput()
	if err != nil {
		t.Fatalf("install test: debootstrap %s from %s failed (is the mirror reachable?): %v\n%s",
			suite, mirror, err, tail(out, 2000))
	}
	if err := os.Rename(tmp, root); err != nil {
		t.Fatal(err)
	}
	refreshBase(t, root)
	t.Logf("debootstrapped %s in %s", root, time.Since(start).Round(time.Second))
}

// refreshBase updates the cached base's package lists, so that the
// packages' dependencies resolve against the mirror as it is today.
func refreshBase(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("chroot", root, "apt-get", "update", "-q")
	cmd.Env = chrootEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install test: apt-get update in the base (is %s reachable?): %v\n%s", mirror, err, tail(out, 2000))
	}
}

// requireHost fails the test unless it runs as root with debootstrap.
func requireHost(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("install test: needs root (debootstrap, chroot, mount); run `make test` as root")
	}
	if _, err := exec.LookPath("debootstrap"); err != nil {
		t.Fatal("install test: debootstrap is missing; install it with hack/install-test-deps.sh (hack/apt-packages.txt)")
	}
}

// lockFile takes a flock (syscall.LOCK_EX or LOCK_SH) on path and
// returns its release.
func lockFile(t *testing.T, path string, how int) func() {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		t.Fatalf("lock %s: %v", path, err)
	}
	return func() { f.Close() }
}

// tail returns the last n bytes of b, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
