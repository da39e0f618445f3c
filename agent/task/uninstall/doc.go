// Package uninstall is the node.uninstall task, the hook the remove
// workflow extends in later issues. Today it disables the agent's own
// systemd unit (so it does not come back at boot) and, only after the
// result was reported, stops it. The package and its files stay on disk
// for the remove workflow to purge.
package uninstall
