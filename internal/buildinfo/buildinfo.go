// Package buildinfo holds the version stamped into both binaries (the
// daemon and the agent) at link time.
package buildinfo

import "runtime/debug"

// Version is set with -ldflags "-X .../buildinfo.Version=...".
var Version = ""

// String returns the stamped version, else the module version the Go
// toolchain recorded, else "dev".
func String() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
