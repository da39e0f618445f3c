// Package systemd holds the systemd units the packages install
// (maas-sidecar.service, gpuaas-node-agent.service); its integration test
// checks each with the real systemd-analyze verify.
package systemd
