// Package bmcsim is a simulated BMC for the MAAS simulator and dev mode. It
// implements ipmi.BMC and behaves like a real one where the daemon can tell:
// power on, off and cycle (off, then on after a short delay), a boot device
// that a one-time override loses after the next boot, credentials that are
// checked on every call (a wrong password is refused, never retried), and a
// switch that makes the BMC unreachable. Fleet maps BMC addresses to
// simulated BMCs the way ipmi.Client maps them to real ones.
package bmcsim
