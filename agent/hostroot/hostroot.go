// Package hostroot resolves host paths under a configurable root, the way
// node_exporter's --path.rootfs does, so the agent and its tasks run
// against fixture trees in tests. The zero Root is the real "/".
package hostroot

import "path/filepath"

// Root is the directory host paths are resolved under.
type Root string

// Path returns the host path p (absolute, as on the host) under r.
func (r Root) Path(p string) string {
	if r == "" {
		return filepath.Clean("/" + p)
	}
	return filepath.Join(string(r), p)
}
