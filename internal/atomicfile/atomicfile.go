// Package atomicfile replaces files so that a reader, or the next start
// after a crash or power loss, sees the old content or the new one, never
// a part of it: the data goes to a temporary file beside the target, which
// is given its mode, fsynced and renamed over the target, and then the
// directory is fsynced so that the rename itself is durable.
//
// Both binaries use it (the agent must not import the daemon), for keys,
// certificates, tokens and the agent's state.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Write replaces path with b, mode perm exactly (the umask does not
// apply). On error the target is as it was and no temporary file remains.
// The error is the operating system's, naming the file; callers add what
// the file is.
func Write(path string, b []byte, perm fs.FileMode) error {
	return WriteFrom(path, perm, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// WriteFrom is Write for content too large to hold in memory: write
// streams it (a database copy). An error from write leaves the target as
// it was.
func WriteFrom(path string, perm fs.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithStaticPermissions(perm))
	if err != nil {
		return err
	}
	defer f.Cleanup() // a no-op after the rename
	if err := write(f); err != nil {
		return err
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
