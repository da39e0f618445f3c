package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

const storeMigrateUsage = `usage: maas-sidecar store migrate --from <store> --to <store>

copies every record of one store into an empty one (bbolt to dqlite or
back), then exports both and compares them record by record. Site leases
are not copied: the daemons of the new store claim their own. Run it with
the daemons stopped.

stores: bolt:<state dir or .db file>
        dqlite:<data dir>,address=<host:port>[,join=<host:port>]...`

// storeMigrateCmd is `maas-sidecar store migrate`.
func storeMigrateCmd() storeCmd {
	var from, to storeSpec
	return storeCmd{name: "store migrate", usage: storeMigrateUsage,
		flags: func(fs *flag.FlagSet) func() error {
			cf := specFlag(fs, "from", "", "source `store`", &from)
			ct := specFlag(fs, "to", "", "target `store`, empty", &to)
			return func() error {
				if err := cf(); err != nil {
					return err
				}
				return ct()
			}
		},
		run: func(ctx context.Context, stdout io.Writer, log *slog.Logger) error {
			return storeMigrate(ctx, from, to, stdout, log)
		}}
}

func storeMigrate(ctx context.Context, from, to storeSpec, stdout io.Writer, log *slog.Logger) (err error) {
	src, err := openSpec(ctx, from, true, log)
	if err != nil {
		return fmt.Errorf("source %s: %w", from, err)
	}
	dst, err := openSpec(ctx, to, false, log)
	if err != nil {
		return closeAll(fmt.Errorf("target %s: %w", to, err), src)
	}
	defer func() { err = closeAll(err, src, dst) }()
	counts, err := storecopy.Copy(ctx, src, dst)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %s to %s:\n", from, to)
	printCounts(stdout, counts)
	fmt.Fprintln(stdout, "verified: the target exports the same records as the source")
	return nil
}
