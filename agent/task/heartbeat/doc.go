// Package heartbeat is the node.heartbeat_check task: the agent proves it
// is alive and reports its host's uptime (read under the host root) and
// its clock, so the daemon can spot a skewed clock.
package heartbeat
