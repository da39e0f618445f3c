package bolt

import (
	"context"
	"io"

	bbolt "go.etcd.io/bbolt"
)

// WriteBackup writes a consistent copy of the store file to w from one
// read transaction (bbolt's Tx.WriteTo) while writers go on. start, when
// set, learns the copy's size in bytes before its first byte. The copy
// is a store file Open accepts. Errors from w come back wrapped internal.
func (s *Store) WriteBackup(ctx context.Context, w io.Writer, start func(size int64)) (n int64, err error) {
	err = s.view(ctx, "store.WriteBackup", func(tx *bbolt.Tx) error {
		if start != nil {
			start(tx.Size())
		}
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}
