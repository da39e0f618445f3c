// Package installtest installs the Debian packages that `make deb` builds
// into a Debian 12 (bookworm) root made with debootstrap, and checks what
// an operator and cloud-init see: install, upgrade from an older version
// with an edited config and existing state, remove, purge, the daemon
// answering /healthz as its packaged user, and the agent installed by the
// rendered cloud-init script from a loopback HTTP server.
//
// The tests carry the build tag integration and need root, debootstrap and
// the Debian mirror; they fail, never skip, when one is missing. The
// debootstrapped base is cached under the user cache directory and copied
// for every test, so no two tests share a root.
package installtest
