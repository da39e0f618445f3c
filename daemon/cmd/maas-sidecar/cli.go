package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpuaas/maas-sidecar/daemon/buildinfo"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/logging"
)

// Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `usage: maas-sidecar <command> [flags]

commands:
  serve     run the daemon (see maas-sidecar serve -h)
  version   print the version
  help      show this help
`

// run executes one command line and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "serve":
		return runServe(args[1:], stderr)
	case "version":
		fmt.Fprintln(stdout, buildinfo.String())
		return exitOK
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "maas-sidecar: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

func runServe(args []string, stderr io.Writer) int {
	cfg, err := parseServe(args, stderr)
	var uerr usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &uerr):
		fmt.Fprintf(stderr, "maas-sidecar serve: %s\n", uerr)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "maas-sidecar serve: %s\n", err)
		return exitFail
	}
	level, _ := config.ParseLevel(cfg.LogLevel) // validated by parseServe
	logger := logging.New(stderr, level)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := serve(ctx, cfg, logger); err != nil {
		logger.Error("maas-sidecar stopped with an error", "err", err)
		return exitFail
	}
	return exitOK
}
