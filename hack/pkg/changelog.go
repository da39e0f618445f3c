package main

import (
	"fmt"
	"time"
)

// changelog is the Debian changelog of a package built from the
// repository: one entry for this version, dated at SOURCE_DATE_EPOCH.
// The project's history is its git log and docs/; the entry says so.
func changelog(name, version string, mtime time.Time) []byte {
	return fmt.Appendf(nil, "%s (%s) unstable; urgency=medium\n\n"+
		"  * Package built from the maas-sidecar repository; the changes are\n"+
		"    its git history up to this version.\n\n"+
		" -- %s  %s\n",
		name, version, maintainer, mtime.Format(time.RFC1123Z))
}
