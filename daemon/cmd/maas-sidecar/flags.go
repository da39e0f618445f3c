package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

// usageError is a wrong command line: exit code 2.
type usageError string

func (e usageError) Error() string { return string(e) }

// noDev is the answer to --dev of a build without the dev tag: the
// release build, which links no simulator (dev_release.go).
const noDev = "--dev is not in this build; it is a development mode built with `-tags dev` (make run)"

// devFlag refuses --dev where the build has no dev mode (built false).
func devFlag(dev, built bool) error {
	if dev && !built {
		return usageError(noDev)
	}
	return nil
}

// parseServe reads serve's flags and config file: the file's values over
// the defaults, then the flags that were given over the file. The result
// is validated.
func parseServe(args []string, stderr io.Writer) (config.Config, error) {
	def := config.Default()
	fs := flag.NewFlagSet("maas-sidecar serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by the caller
	path := fs.String("config", config.DefaultPath, "YAML config `file`; a missing file is an error unless it is the default")
	stateDir := fs.String("state-dir", def.StateDir, "state `directory` (store file, admin.token), created 0700")
	listen := fs.String("admin-listen", def.AdminListen, "admin API, probes and metrics `host:port`; port 0 picks one and logs it")
	level := fs.String("log-level", def.LogLevel, "log `level`: debug, info, warn or error")
	agentListen := fs.String("agent-listen", def.Agent.Listen, "agent API (mutual TLS) `host:port`")
	dev := fs.Bool("dev", false, "development mode: a simulated MAAS site, in-memory secrets and a demo batch (never in production)")
	devIdle := fs.Bool("dev-idle", false, "with --dev: skip the demo batch")
	devNoPG := fs.Bool("dev-no-postgres", false, "with --dev: no local PostgreSQL region database (and no LISTEN feed) even where postgresql is installed")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: maas-sidecar serve [flags]")
			fs.PrintDefaults()
			return config.Config{}, err
		}
		return config.Config{}, usageError(err.Error() + " (see maas-sidecar serve -h)")
	}
	if fs.NArg() > 0 {
		return config.Config{}, usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := devFlag(*dev, devBuilt); err != nil {
		return config.Config{}, err
	}
	if *devIdle && !*dev {
		return config.Config{}, usageError("--dev-idle needs --dev")
	}
	if *devNoPG && !*dev {
		return config.Config{}, usageError("--dev-no-postgres needs --dev")
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	cfg, err := config.Load(*path, given["config"])
	if err != nil {
		return config.Config{}, err
	}
	override(&cfg.StateDir, *stateDir, given["state-dir"])
	override(&cfg.AdminListen, *listen, given["admin-listen"])
	override(&cfg.LogLevel, *level, given["log-level"])
	override(&cfg.Agent.Listen, *agentListen, given["agent-listen"])
	cfg.Dev, cfg.DevIdle, cfg.DevNoPostgres = *dev, *devIdle, *devNoPG
	if cfg.Dev && !given["agent-listen"] && cfg.Agent.Listen == def.Agent.Listen {
		cfg.Agent.Listen = "127.0.0.1:0" // dev agents are simulated hosts on loopback
	}
	if cfg.Dev && !given["log-level"] && cfg.LogLevel == def.LogLevel {
		cfg.LogLevel = "warn" // keep the terminal for the banner and the demo's progress
	}
	if cfg.Dev && cfg.Agent.HealthInterval == def.Agent.HealthInterval {
		cfg.Agent.HealthInterval = devHealthInterval // the demo's faults are judged within seconds
	}
	if cfg.Dev {
		devPackages(&cfg.Agent)
	}
	return cfg, cfg.Validate()
}

// devHealthInterval is agent.health_interval under --dev when the config
// leaves the default.
const devHealthInterval = 5 * time.Second

func override(dst *string, v string, given bool) {
	if given {
		*dst = v
	}
}

// devPackages gives --dev a placeholder agent package for each simulated
// architecture the config leaves without one: simulated hosts run the
// agent in-process and download nothing.
func devPackages(a *config.Agent) {
	set := a.PackageSet()
	for _, arch := range []string{"amd64", "arm64"} {
		if _, ok := set[arch]; ok {
			continue
		}
		if a.Packages == nil {
			a.Packages = map[string]config.AgentPackage{}
		}
		a.Packages[arch] = config.AgentPackage{URL: "https://localhost/dev-mode/gpuaas-node-agent_" + arch + ".deb"}
	}
}
