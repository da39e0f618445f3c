// Package drain is the node.drain task, the hook the drain lifecycle
// extends in later issues. Today it marks the node unschedulable by
// writing the drain marker /var/lib/gpuaas-node-agent/drain (JSON with
// the reason and time) under the host root; schedulers and later cleanup
// tasks read it. Draining twice rewrites the same marker.
package drain
