// Package simhost is dev mode's simulated GPU host, also booted by the
// workflow tests and sim/cmd/maassim: when MAAS "boots" a deployed machine,
// it applies the cloud-config parts of the machine's user-data
// (write_files) to a fixture root and starts the real node agent from what
// cloud-init left there, with an in-memory systemd. Shell parts and runcmd
// are not executed: the host is simulated, the agent is real.
package simhost
