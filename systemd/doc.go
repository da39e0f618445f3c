// Package systemd holds the systemd units the packages install
// (maas-sidecar.service, gpuaas-node-agent.service). Its tests check the
// agent unit's start conditions and that it shares the host's mount
// namespace; its integration tests run the real systemd-analyze verify,
// security (with an exposure bound per unit) and condition on them.
package systemd
