package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

// usageError is a wrong command line: exit code 2.
type usageError string

func (e usageError) Error() string { return string(e) }

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
	dev := fs.Bool("dev", false, "reserved for the development mode; refused until it exists")
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
	if *dev {
		return config.Config{}, usageError("--dev is reserved for the development mode, which does not exist yet")
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
	return cfg, cfg.Validate()
}

func override(dst *string, v string, given bool) {
	if given {
		*dst = v
	}
}
