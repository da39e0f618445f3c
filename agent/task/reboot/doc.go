// Package reboot is the node.reboot task: the daemon's fallback when a
// GPU refused reset and the driver could not be reloaded (something held
// it). The result names the host's boot id (the kernel's
// /proc/sys/kernel/random/boot_id) before the reboot; after the report
// the task runs `systemctl reboot` through the agent's host exec. The
// daemon knows the host came back when a node.heartbeat_check reports
// another boot id.
package reboot
