package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

const restoreUsage = `usage: maas-sidecar restore --in <file> (--state-dir <dir> | --to <store>)

restores a backup (a bbolt file or an export stream) into an empty store
and verifies it record by record: --state-dir restores into the bbolt
store of that state directory; --to names any store, e.g. a fresh dqlite
cluster's first member. Run it with the daemon stopped.`

// restoreCmd is `maas-sidecar restore`.
func restoreCmd() storeCmd {
	var to storeSpec
	var in, stateDir *string
	return storeCmd{name: "restore", usage: restoreUsage,
		flags: func(fs *flag.FlagSet) func() error {
			in = fs.String("in", "", "backup `file`")
			stateDir = fs.String("state-dir", "", "state `directory` whose bbolt store to restore into")
			check := specFlag(fs, "to", "", "`store` to restore into (instead of --state-dir)", &to)
			return func() error {
				switch {
				case *in == "":
					return usageError("--in is required")
				case *stateDir != "":
					var err error
					to, err = parseSpec("bolt:" + *stateDir)
					return err
				}
				return check()
			}
		},
		run: func(ctx context.Context, stdout io.Writer, log *slog.Logger) error {
			return restore(ctx, *in, to, stdout, log)
		}}
}

func restore(ctx context.Context, in string, to storeSpec, stdout io.Writer, log *slog.Logger) (err error) {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic, _ := br.Peek(2)
	dst, err := openSpec(ctx, to, false, log)
	if err != nil {
		return fmt.Errorf("%s: %w", to, err)
	}
	defer func() { err = closeAll(err, dst) }()
	var counts storecopy.Counts
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		recs, err := storecopy.ReadStream(br)
		if err != nil {
			return err
		}
		counts, err = storecopy.Restore(ctx, recs, dst)
		if err != nil {
			return err
		}
	} else if counts, err = restoreBoltFile(ctx, br, dst, log); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s into %s:\n", in, to)
	printCounts(stdout, counts)
	fmt.Fprintln(stdout, "verified: the store exports the same records as the backup")
	return nil
}

// restoreBoltFile copies a bbolt backup to a temporary file (opening it
// may bring its schema up to date, and the backup stays untouched) and
// copies its records into dst.
func restoreBoltFile(ctx context.Context, r io.Reader, dst storecopy.Target, log *slog.Logger) (storecopy.Counts, error) {
	dir, err := os.MkdirTemp("", "maas-sidecar-restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, bolt.FileName)
	if err := writeAtomically(path, func(f *os.File) error { _, err := io.Copy(f, r); return err }); err != nil {
		return nil, err
	}
	src, err := bolt.Open(path, bolt.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("the backup is not a store file: %w", err)
	}
	defer src.Close()
	return storecopy.Copy(ctx, src, dst)
}
