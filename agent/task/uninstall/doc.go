// Package uninstall is the node.uninstall task. Before the result is
// reported it disables the agent's own systemd unit (so it does not come
// back at boot) and looks up the gpuaas-node-agent package. After the
// report, when the package is installed, it purges it from a transient
// systemd unit (systemd-run --no-block): the package's prerm stops the
// agent, and the purge, running outside the agent's unit, survives that.
// An agent not installed from the package (a simulated host, a hand
// install) or a host without systemd-run gets its unit stopped instead.
package uninstall
