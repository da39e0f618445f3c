package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/logging"
	"github.com/jonboulle/clockwork"
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
  migrate   bring the store to this binary's schema version, with the
            daemon stopped; --check lists pending migrations (see -h)
  store migrate --from <store> --to <store>
            copy a store into an empty one (bbolt to dqlite or back)
            and verify it record by record (see -h)
  backup    write a consistent, signed snapshot of a store (of a running
            daemon's bbolt store: through its GET /api/v1/admin/backup)
  restore   check a backup's signature, restore it into an empty store, verified
  maas-notify-forward --site ID --url URL --secret-file FILE
            forward this region database's machine notifications to a
            daemon elsewhere as signed webhooks (see -h)
  evidence verify FILE --key site.pub
            check a clean certificate or a node's exported bundle offline:
            signature, chain and site log (see -h)
  version   print the version and the store backends built in
  help      show this help
  completion bash
            print the bash completion script
  site, policy, override, roce, onboard, onboarding, node, decommission,
  token, audit, cluster:
            operator commands that call the admin API (see help); on a
            MAAS region controller, site create --from-local-maas takes
            the MAAS URL from its regiond.conf (deb or snap)

operator flags: --addr (or MAAS_SIDECAR_ADDR), --token, --token-file (or
MAAS_SIDECAR_TOKEN; default <state-dir>/admin.token), -o table|json.
exit codes: 0 ok, 1 failure, 2 usage or bad input file (nothing sent),
3 auth refused, 4 not found, 5 conflict, 6 input refused by the API,
7 the outcome is not success (probe failed, watched runs failed)
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
	case "migrate":
		return runMigrate(args[1:], stdout, stderr)
	case "store":
		return runStore(args[1:], stdout, stderr)
	case "backup":
		return runStoreCmd(backupCmd(), args[1:], stdout, stderr)
	case "restore":
		return runStoreCmd(restoreCmd(), args[1:], stdout, stderr)
	case "maas-notify-forward":
		return runNotifyForward(args[1:], stderr)
	case "evidence":
		return runEvidence(args[1:], stdout, stderr)
	case "version":
		return runVersion(stdout)
	case "completion":
		return runCompletion(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage+"\n"+cli.Usage())
		return exitOK
	default:
		if slices.Contains(cli.Verbs(), args[0]) {
			return cli.Main(context.Background(), args, cli.Env{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr,
				Getenv: os.Getenv, StateDir: config.Default().StateDir, Clock: clockwork.NewRealClock()})
		}
		fmt.Fprintf(stderr, "maas-sidecar: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

func runServe(args []string, stderr io.Writer) int {
	cfg, err := parseServe(args, stderr)
	if code, stop := parseExit("serve", err, stderr); stop {
		return code
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

// parseExit turns a subcommand's flag-parsing error into its exit: 0 for
// -h, 2 (the message naming the value) for a usage error, 1 otherwise;
// stop is false when there was no error.
func parseExit(cmd string, err error, stderr io.Writer) (code int, stop bool) {
	var uerr usageError
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		return exitOK, true
	case errors.As(err, &uerr):
		fmt.Fprintf(stderr, "maas-sidecar %s: %s\n", cmd, uerr)
		return exitUsage, true
	}
	fmt.Fprintf(stderr, "maas-sidecar %s: %s\n", cmd, err)
	return exitFail, true
}
