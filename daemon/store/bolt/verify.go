package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"

	bbolt "go.etcd.io/bbolt"
)

// errUnreadable is a page bbolt panicked or faulted on.
var errUnreadable = errors.New("a page cannot be read")

// The layout of a bbolt meta page (pages 0 and 1), as bbolt writes it.
const (
	metaMagic      = 0xED0CDAED
	pageHeaderSize = 16
	metaSumOffset  = 56 // the checksum covers the meta's first 56 bytes
	metaPgidOffset = 40 // the high water mark: pages [0, pgid) are in use
	metaTxidOffset = 48
)

// preflight refuses a file shorter than the pages its newest valid meta
// page says are in use (a truncated file), before bbolt maps it: reading
// a page past the end of a mapped file is a bus error, not an error. It
// only reads the file. A file without a valid meta page is left to bbolt,
// which refuses it.
func preflight(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // missing: bbolt creates it; unreadable: bbolt says why
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil
	}
	first := make([]byte, pageHeaderSize+metaSumOffset+8)
	if _, err := io.ReadFull(f, first); err != nil {
		return fmt.Errorf("%d bytes is too short for a store file", fi.Size())
	}
	pageSize, ok := metaPageSize(first)
	if !ok {
		return nil
	}
	var pgid, txid uint64
	for i := int64(0); i < 2; i++ {
		m := make([]byte, len(first))
		if _, err := f.ReadAt(m, i*int64(pageSize)); err != nil {
			continue
		}
		if p, t, ok := readMeta(m); ok && (pgid == 0 || t > txid) {
			pgid, txid = p, t
		}
	}
	if need := int64(pgid) * int64(pageSize); pgid > 0 && fi.Size() < need {
		return fmt.Errorf("truncated: %d bytes, but its pages need %d", fi.Size(), need)
	}
	return nil
}

// metaPageSize returns the page size a meta page records.
func metaPageSize(b []byte) (uint32, bool) {
	m := b[pageHeaderSize:]
	if binary.LittleEndian.Uint32(m) != metaMagic {
		return 0, false
	}
	size := binary.LittleEndian.Uint32(m[8:])
	return size, size >= 1024 && size&(size-1) == 0
}

// readMeta returns the high water mark and transaction id of a meta page
// whose checksum holds.
func readMeta(b []byte) (pgid, txid uint64, ok bool) {
	m := b[pageHeaderSize:]
	h := fnv.New64a()
	_, _ = h.Write(m[:metaSumOffset])
	if binary.LittleEndian.Uint32(m) != metaMagic || h.Sum64() != binary.LittleEndian.Uint64(m[metaSumOffset:]) {
		return 0, 0, false
	}
	return binary.LittleEndian.Uint64(m[metaPgidOffset:]), binary.LittleEndian.Uint64(m[metaTxidOffset:]), true
}

// verify reads every reachable page of db (every bucket, key and value)
// and runs bbolt's consistency check, before anything writes to the file.
// A damaged page makes bbolt panic, or fault where it points outside the
// file; both are recovered into the error returned, in this goroutine.
func verify(db *bbolt.DB) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errUnreadable, r)
		}
	}()
	err = db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bbolt.Bucket) error { return walk(b) })
	})
	if err != nil {
		return err
	}
	return db.View(func(tx *bbolt.Tx) error {
		var first error
		for e := range tx.Check() { // drained, so the checker's goroutine ends
			if first == nil {
				first = e
			}
		}
		return first
	})
}

// walk touches every key and value of b and its nested buckets.
func walk(b *bbolt.Bucket) error {
	var sum byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v != nil {
			if len(v) > 0 {
				sum ^= v[0] ^ v[len(v)-1]
			}
			continue
		}
		if child := b.Bucket(k); child != nil {
			if err := walk(child); err != nil {
				return err
			}
		}
	}
	_ = sum
	return nil
}
