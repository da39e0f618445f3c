package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

const backupUsage = `usage: maas-sidecar backup --out <file> [--from <store>] [--key <file>]

writes a consistent snapshot of a store, signed with the daemon's
task-signing key (--key, by default pki/task-signing.key in the store's
state dir) so that restore refuses a backup that was altered: of bbolt, a
copy of the store file; of dqlite, the store's records as
gzip-compressed JSON lines. Restore it with restore. A bbolt store
locked by its running daemon is backed up through that daemon, its online
backup GET /api/v1/admin/backup (a consistent snapshot): the daemon at
MAAS_SIDECAR_ADDR (default 127.0.0.1:5290), with MAAS_SIDECAR_TOKEN or
the state dir's admin.token, when that daemon's store is this file (its
answer names it); a file locked by another process is refused.`

// backupCmd is `maas-sidecar backup`.
func backupCmd() storeCmd {
	var from storeSpec
	var out, key *string
	return storeCmd{name: "backup", usage: backupUsage,
		flags: func(fs *flag.FlagSet) func() error {
			out = fs.String("out", "", "snapshot `file` to write")
			key = fs.String("key", "", "Ed25519 signing key `file` (default: pki/"+pki.SigningKeyFile+" of the store's state dir)")
			check := specFlag(fs, "from", "bolt:"+config.Default().StateDir, "`store` to back up", &from)
			return func() error {
				if *out == "" {
					return usageError("--out is required")
				}
				return check()
			}
		},
		run: func(ctx context.Context, stdout io.Writer, log *slog.Logger) error {
			return backup(ctx, from, *out, firstNonEmpty(*key, keyPathOf(from)), stdout, log)
		}}
}

func backup(ctx context.Context, from storeSpec, out, keyPath string, stdout io.Writer, log *slog.Logger) (err error) {
	src, err := openSpec(ctx, from, true, log)
	if from.backend == "bolt" && errors.Is(err, bolt.ErrLocked) {
		// Its daemon may run and hold the lock: back up through the
		// daemon, if the daemon's store is this file.
		key, kerr := signingKey(keyPath)
		if kerr != nil {
			return kerr
		}
		if oerr := onlineBackup(ctx, from, out, key, stdout); oerr != nil {
			return fmt.Errorf("%s: %w; the daemon's online backup failed too: %v", from, err, oerr)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	defer func() { err = closeAll(err, src) }()
	key, err := signingKey(keyPath)
	if err != nil {
		return err
	}
	return writeSigned(out, key, func(f io.Writer) error {
		if b, ok := src.(*bolt.Store); ok {
			n, err := b.WriteBackup(ctx, f, nil)
			if err == nil {
				fmt.Fprintf(stdout, "backed up %s to %s (bbolt file, %d bytes, signed)\n", from, out, n)
			}
			return err
		}
		counts, err := storecopy.WriteStream(ctx, src, f)
		if err == nil {
			fmt.Fprintf(stdout, "backed up %s to %s (export stream, signed):\n", from, out)
			printCounts(stdout, counts)
		}
		return err
	})
}

// writeAtomically writes path through a temporary file beside it, synced
// and renamed into place only when write succeeded.
func writeAtomically(path string, write func(*os.File) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// exportBackup is the online backup of a store that has no file to copy
// (dqlite): its export stream, of a size unknown in advance.
type exportBackup struct{ src lifecycle.Exporter }

// WriteBackup writes the export stream to w.
func (e exportBackup) WriteBackup(ctx context.Context, w io.Writer, start func(size int64)) (int64, error) {
	start(-1)
	cw := &countingWriter{w: w}
	_, err := storecopy.WriteStream(ctx, e.src, cw)
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
