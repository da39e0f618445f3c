package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/store/signedbackup"
)

// verifiedPayload copies the backup's payload to a temporary file in dir
// (the target store's directory), checking its signature on the way, and
// returns the file's path; on an error no file is left.
func verifiedPayload(o restoreOpts, dir string, stdout io.Writer) (path string, err error) {
	in, err := os.Open(o.in)
	if err != nil {
		return "", err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".restore-*.verify")
	if err != nil {
		return "", err
	}
	defer func() {
		err = errors.Join(err, tmp.Close())
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if err := copyVerified(o, in, fi.Size(), tmp, stdout); err != nil {
		return "", err
	}
	return tmp.Name(), tmp.Sync()
}

// copyVerified copies in's payload to dst: a signed backup checked with
// the key at o.key, an unsigned one only with o.insecure.
func copyVerified(o restoreOpts, in *os.File, size int64, dst io.Writer, stdout io.Writer) error {
	head := make([]byte, len(signedbackup.Magic))
	n, _ := io.ReadFull(in, head)
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if string(head[:n]) != signedbackup.Magic {
		if !o.insecure {
			return fmt.Errorf("%s is not a signed backup (one of an older release, or an online backup fetched without `maas-sidecar backup`): "+
				"nothing was restored; take a new backup with `maas-sidecar backup`, or restore this one unchecked with --insecure-unverified", o.in)
		}
		fmt.Fprintf(stdout, "WARNING: %s carries no signature; restoring it unverified (--insecure-unverified)\n", o.in)
		_, err := io.Copy(dst, in)
		return err
	}
	pub, err := signedbackup.LoadPublicKey(o.key)
	if err != nil {
		return fmt.Errorf("no key to verify the backup with: %w (put the backup's pki/ in place in the state dir first, or name the key with --key)", err)
	}
	if err := signedbackup.Verify(in, size, pub, dst); err != nil {
		return fmt.Errorf("%s failed verification, nothing was restored: %w", o.in, err)
	}
	return nil
}

// restoreUndo removes what a failed restore created: the target store
// (a bbolt file or a dqlite data dir that did not exist before) and the
// directory made for it.
type restoreUndo struct {
	dir        string // the target store's directory, created when missing
	store      string // the store's path when it did not exist before
	createdDir bool
}

func newRestoreUndo(to storeSpec) (*restoreUndo, error) {
	u := &restoreUndo{dir: filepath.Dir(filepath.Clean(to.path))}
	if _, err := os.Stat(to.path); errors.Is(err, os.ErrNotExist) {
		u.store = to.path
	}
	if _, err := os.Stat(u.dir); errors.Is(err, os.ErrNotExist) {
		u.createdDir = true
	}
	return u, os.MkdirAll(u.dir, 0o700)
}

func (u *restoreUndo) run() error {
	var err error
	if u.store != "" {
		err = os.RemoveAll(u.store)
	}
	if u.createdDir {
		err = errors.Join(err, os.RemoveAll(u.dir))
	}
	return err
}
