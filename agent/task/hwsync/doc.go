// Package hwsync is the node.hw_sync_reseed task (seed 001 §9.1): it
// rewrites /etc/maas/maas-machine-creds.yml in the format MAAS's own
// vendor-data writes (a YAML "reporting: maas:" map with consumer_key,
// endpoint, token_key and token_secret, keys sorted) with mode 0600, then
// enables the hardware-sync timer and restarts the timer and the service
// through systemd, so MAAS sees a fresh sync. Idempotent: running it twice
// leaves the same file and the same units running.
package hwsync
