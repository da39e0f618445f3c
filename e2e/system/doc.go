// Package system holds the end-to-end tests of maas-sidecar on its real
// binaries (build tag e2e; `make e2e`, part of `make test`). Each test
// builds maas-sidecar, gpuaas-node-agent and the MAAS simulator, starts
// Vault (bin/vaultdev, named by MAAS_SIDECAR_VAULTDEV), the simulator
// and the daemon as separate processes, and drives the daemon only
// through its CLI and its HTTP endpoints. Booted machines run the real
// agent as separate processes on fixture roots. The simulator's request
// log is the oracle for duplicated side effects, including across
// SIGKILLs of the daemon. The console's browser tests (tags e2e,browser;
// `make test-browser`) drive the same world's console in headless
// Chromium. A missing component fails the tests; nothing skips.
package system
