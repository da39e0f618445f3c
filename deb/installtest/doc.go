// Package installtest installs the Debian packages that `make deb` builds
// into Debian roots made with debootstrap, and checks what an operator
// and cloud-init see. In Debian 11 (bullseye), 12 (bookworm) and 13
// (trixie): install, upgrade from an older version with an edited config
// and existing state, remove and purge of the daemon, which answers
// /readyz as its packaged user on bbolt and on a one-member dqlite store;
// the agent's install, remove and purge. In Debian 12: the agent
// installed by the rendered cloud-init script from a loopback HTTP
// server, the notify forwarder, and policy-rc.d's refusals.
//
// The tests carry the build tag integration and need root, debootstrap and
// the Debian mirror; they fail, never skip, when one is missing. Each
// release's debootstrapped base is cached under the user cache directory
// and copied for every test, so no two tests share a root.
package installtest
