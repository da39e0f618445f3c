package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

const restoreUsage = `usage: maas-sidecar restore --in <file> (--state-dir <dir> | --to <store>) [--key <file>] [--insecure-unverified]

restores a signed backup (a bbolt file or an export stream) into an empty
store and verifies it record by record: --state-dir restores into the
bbolt store of that state directory; --to names any store, e.g. a fresh
dqlite cluster's first member. The backup's signature is checked first,
with the daemon's task-signing key (--key, by default
pki/task-signing.key in the target's state dir: put the backup's pki/ in
place first), while the file is copied to a temporary file in the target's
directory; a backup that fails is refused and no store is left behind.
An unsigned backup (of an older release, or fetched with curl) is refused
unless --insecure-unverified says to restore it unchecked. Run it with
the daemon stopped.`

// restoreOpts are restore's flags.
type restoreOpts struct {
	in, key  string
	to       storeSpec
	insecure bool
}

// restoreCmd is `maas-sidecar restore`.
func restoreCmd() storeCmd {
	var o restoreOpts
	var in, stateDir, key *string
	var insecure *bool
	return storeCmd{name: "restore", usage: restoreUsage,
		flags: func(fs *flag.FlagSet) func() error {
			in = fs.String("in", "", "backup `file`")
			stateDir = fs.String("state-dir", "", "state `directory` whose bbolt store to restore into")
			key = fs.String("key", "", "`file` of the Ed25519 key (private, or public PEM) that verifies the backup (default: pki/"+pki.SigningKeyFile+" of the target's state dir)")
			insecure = fs.Bool("insecure-unverified", false, "restore a backup that carries no signature, unchecked")
			check := specFlag(fs, "to", "", "`store` to restore into (instead of --state-dir)", &o.to)
			return func() error {
				switch {
				case *in == "":
					return usageError("--in is required")
				case *stateDir != "":
					var err error
					o.to, err = parseSpec("bolt:" + *stateDir)
					return err
				}
				return check()
			}
		},
		run: func(ctx context.Context, stdout io.Writer, log *slog.Logger) error {
			o.in, o.key, o.insecure = *in, firstNonEmpty(*key, keyPathOf(o.to)), *insecure
			return restore(ctx, o, stdout, log)
		}}
}

// restore verifies the backup into a temporary file beside the target
// store, then imports it; on any failure a store it created is removed.
func restore(ctx context.Context, o restoreOpts, stdout io.Writer, log *slog.Logger) (err error) {
	undo, err := newRestoreUndo(o.to)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, undo.run())
		}
	}()
	payload, err := verifiedPayload(o, undo.dir, stdout)
	if err != nil {
		return err
	}
	defer os.Remove(payload)
	counts, err := restorePayload(ctx, payload, o.to, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s into %s:\n", o.in, o.to)
	printCounts(stdout, counts)
	fmt.Fprintln(stdout, "verified: the store exports the same records as the backup")
	return nil
}

// restorePayload imports the verified payload at path (an export stream
// or a bbolt file) into an empty store to.
func restorePayload(ctx context.Context, path string, to storeSpec, log *slog.Logger) (counts storecopy.Counts, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		recs, err := storecopy.ReadStream(br)
		if err != nil {
			return nil, err
		}
		dst, err := openSpec(ctx, to, false, log)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", to, err)
		}
		defer func() { err = closeAll(err, dst) }()
		return storecopy.Restore(ctx, recs, dst)
	}
	src, err := bolt.Open(path, bolt.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("the backup is not a store file: %w", err)
	}
	defer src.Close()
	dst, err := openSpec(ctx, to, false, log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", to, err)
	}
	defer func() { err = closeAll(err, dst) }()
	return storecopy.Copy(ctx, src, dst)
}
