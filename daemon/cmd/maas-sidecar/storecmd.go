package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

// storeCmd is one store command: its flags, then its work on them.
type storeCmd struct {
	name  string
	usage string
	flags func(fs *flag.FlagSet) func() error // declares flags; the returned check runs after parsing
	run   func(ctx context.Context, stdout io.Writer, log *slog.Logger) error
}

// runStoreCmd parses args for c and runs it under SIGTERM/SIGINT.
func runStoreCmd(c storeCmd, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("maas-sidecar "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	check := c.flags(fs)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stderr)
		fmt.Fprintln(stderr, c.usage)
		fs.PrintDefaults()
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "maas-sidecar %s: %s (see -h)\n", c.name, err)
		return exitUsage
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "maas-sidecar %s: unexpected argument %q\n", c.name, fs.Arg(0))
		return exitUsage
	}
	if err := check(); err != nil {
		fmt.Fprintf(stderr, "maas-sidecar %s: %s\n", c.name, err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := c.run(ctx, stdout, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))); err != nil {
		fmt.Fprintf(stderr, "maas-sidecar %s: %s\n", c.name, err)
		return exitFail
	}
	return exitOK
}

// runStore dispatches `maas-sidecar store <verb>`.
func runStore(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "migrate" {
		fmt.Fprintln(stderr, "usage: maas-sidecar store migrate --from <store> --to <store> (see maas-sidecar store migrate -h)")
		return exitUsage
	}
	return runStoreCmd(storeMigrateCmd(), args[1:], stdout, stderr)
}

// specFlag declares a store spec flag; the check parses it.
func specFlag(fs *flag.FlagSet, name, def, usage string, dst *storeSpec) func() error {
	raw := fs.String(name, def, usage)
	return func() error {
		if *raw == "" {
			return usageError("--" + name + " is required")
		}
		spec, err := parseSpec(*raw)
		*dst = spec
		return err
	}
}

// printCounts writes one line per kind with records, in RecordKinds order.
func printCounts(w io.Writer, c storecopy.Counts) {
	total := 0
	for _, k := range lifecycle.RecordKinds {
		if c[k] > 0 {
			fmt.Fprintf(w, "  %-20s %d\n", k, c[k])
			total += c[k]
		}
	}
	fmt.Fprintf(w, "  %-20s %d\n", "total", total)
}

// closeAll closes the stores, joining their errors into err.
func closeAll(err error, sts ...openedStore) error {
	for _, st := range sts {
		if st != nil {
			err = errors.Join(err, st.Close())
		}
	}
	return err
}
