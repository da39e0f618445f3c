package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

type config struct {
	listen, apiKey, webhookURL, webhookSecret string
	machines, hosts, noBossEvery, arm64Every  int
	speed                                     float64
	seed                                      uint64
	images                                    string
	requestLog                                string
	bootAgent, bootDir                        string
	fakeTools, gpus                           string
	agentRetry                                time.Duration
	hold                                      string
	eraseFull, eraseQuick, eraseSecure        time.Duration
	postgres                                  string
}

func parseFlags(args []string) config {
	var c config
	fs := flag.NewFlagSet("maassim", flag.ExitOnError)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:5240", "address to serve on")
	fs.IntVar(&c.machines, "machines", 20, "Ready machines to seed (gpu-001, gpu-002, ...)")
	fs.IntVar(&c.noBossEvery, "no-boss-every", 10, "every Nth seeded machine has no BOSS disk (0: none)")
	fs.IntVar(&c.arm64Every, "arm64-every", 0, "every Nth seeded machine is arm64/generic (a Grace host), the others amd64/generic (0: none)")
	fs.IntVar(&c.hosts, "hosts", 0, "unenlisted hosts (BMCs at 10.14.0.x) waiting for a PXE boot")
	fs.StringVar(&c.apiKey, "api-key", "", "admin API key consumer_key:token_key:token_secret (required)")
	fs.Float64Var(&c.speed, "speed", 60, "divide every MAAS duration by this factor")
	fs.StringVar(&c.webhookURL, "webhook-url", "", "POST change hints here")
	fs.StringVar(&c.webhookSecret, "webhook-secret", "", "HMAC secret of the hints")
	fs.Uint64Var(&c.seed, "seed", 1, "random seed")
	fs.StringVar(&c.images, "custom-image", "gpuaas-ubuntu-2204", "custom image deployable as custom/<name>")
	fs.StringVar(&c.requestLog, "request-log", "", "append every MAAS API call to this `file` as JSON lines")
	fs.StringVar(&c.bootAgent, "boot-agent", "", "gpuaas-node-agent `binary` to start when a machine boots")
	fs.StringVar(&c.bootDir, "boot-dir", "", "`dir` holding each booted machine's root (DIR/<hostname>)")
	fs.StringVar(&c.fakeTools, "fake-tools-dir", "", "`dir` holding the fakehost and fakegpu binaries: booted machines get a provisioned root with them on PATH")
	fs.StringVar(&c.gpus, "gpus", "nvidia:8", "GPUs of each booted machine with --fake-tools-dir: nvidia:N, amd:N or none")
	fs.DurationVar(&c.agentRetry, "boot-agent-retry", 0, "cap the booted agents' reconnect backoff (0: as rendered)")
	fs.StringVar(&c.hold, "hold", "", "act, then hold the answer: `op=dur,...` (deploy, release, erase, power_off, ...)")
	fs.StringVar(&c.postgres, "postgres", "", "mirror the machines into this PostgreSQL `DSN` (maasserver_node with MAAS's notification triggers)")
	def := maassim.DefaultDurations()
	fs.DurationVar(&c.eraseFull, "erase-full", def.DiskErasing, "time a release with erase spends erasing (before --speed)")
	fs.DurationVar(&c.eraseQuick, "erase-quick", def.QuickErase, "time a quick_erase takes (before --speed)")
	fs.DurationVar(&c.eraseSecure, "erase-secure", def.SecureErase, "time a secure_erase takes (before --speed)")
	_ = fs.Parse(args)
	return c
}

func (c config) validate() error {
	switch {
	case c.apiKey == "":
		return errors.New("--api-key is required")
	case c.webhookURL != "" && c.webhookSecret == "":
		return errors.New("--webhook-secret is required with --webhook-url")
	case (c.bootAgent == "") != (c.bootDir == ""):
		return errors.New("--boot-agent and --boot-dir go together")
	case c.fakeTools != "" && c.bootAgent == "":
		return errors.New("--fake-tools-dir needs --boot-agent")
	case c.noBossEvery < 0:
		return errors.New("--no-boss-every must not be negative")
	case c.arm64Every < 0:
		return errors.New("--arm64-every must not be negative")
	case c.eraseFull < 0 || c.eraseQuick < 0 || c.eraseSecure < 0:
		return errors.New("--erase-full, --erase-quick and --erase-secure must not be negative")
	}
	if c.postgres != "" {
		if _, err := pgx.ParseConfig(c.postgres); err != nil {
			return fmt.Errorf("--postgres: %w", err) // pgx shows the DSN with its password redacted
		}
	}
	if _, err := fakehost.ParseGPUs(c.gpus); err != nil {
		return fmt.Errorf("--gpus: %w", err)
	}
	_, err := parseHolds(c.hold)
	return err
}
