package drives

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// BlockSize is the size of one canary block.
const BlockSize = 4096

// DefaultCanaries is the number of canaries per drive when the policy
// gives none.
const DefaultCanaries = 8

// Plant writes n random canary blocks at random block-aligned offsets of
// d (placement wire.PlaceFull or wire.PlaceQuick) and returns their
// offsets and digests; the bytes are forgotten. src nil is crypto/rand.
func Plant(root hostroot.Root, d Drive, n int, placement string, src io.Reader) ([]wire.Canary, error) {
	if src == nil {
		src = rand.Reader
	}
	if n <= 0 {
		n = DefaultCanaries
	}
	ranges := spans(d.Size, placement)
	if ranges == nil {
		return nil, fmt.Errorf("%s: %d bytes is too small for canaries", d.Label(), d.Size)
	}
	f, err := openBlock(root.Path(d.Path()), os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Label(), err)
	}
	defer f.Close()
	buf := aligned()
	var out []wire.Canary
	for i := 0; len(out) < n && i < 4*n; i++ {
		off, err := offset(src, ranges[i%len(ranges)])
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(c wire.Canary) bool { return c.Offset == off }) {
			continue
		}
		if _, err := io.ReadFull(src, buf); err != nil {
			return nil, fmt.Errorf("canary bytes: %w", err)
		}
		if _, err := f.WriteAt(buf, off); err != nil {
			return nil, fmt.Errorf("%s: write canary at %d: %w", d.Label(), off, err)
		}
		sum := sha256.Sum256(buf)
		out = append(out, wire.Canary{Offset: off, Size: BlockSize, SHA256: hex.EncodeToString(sum[:])})
	}
	clear(buf)
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("%s: sync canaries: %w", d.Label(), err)
	}
	return out, nil
}

// Survivors reads the canaries back from the device at host path dev and
// returns the offsets whose block still has the canary's digest.
func Survivors(root hostroot.Root, dev string, cs []wire.Canary) ([]int64, error) {
	f, err := openBlock(root.Path(dev), os.O_RDONLY)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dev, err)
	}
	defer f.Close()
	buf := aligned()
	var out []int64
	for _, c := range cs {
		if c.Size != BlockSize || c.Offset%BlockSize != 0 || c.Offset < 0 {
			return nil, fmt.Errorf("%s: canary at %d of %d bytes is not a %d-byte block", dev, c.Offset, c.Size, BlockSize)
		}
		n, err := f.ReadAt(buf, c.Offset)
		if err != nil && !(errors.Is(err, io.EOF) && n == 0) {
			return nil, fmt.Errorf("%s: read back %d: %w", dev, c.Offset, err)
		}
		sum := sha256.Sum256(buf[:n])
		if n == BlockSize && hex.EncodeToString(sum[:]) == c.SHA256 {
			out = append(out, c.Offset)
		}
	}
	return out, nil
}

type span struct{ lo, hi int64 } // block offsets in [lo, hi]

// spans are where canaries go: the whole drive, or for quick the first
// and last wire.QuickEraseBytes.
func spans(size int64, placement string) []span {
	last := size/BlockSize*BlockSize - BlockSize
	if last < 0 {
		return nil
	}
	if placement != wire.PlaceQuick || size < 2*wire.QuickEraseBytes {
		return []span{{0, last}}
	}
	return []span{{0, wire.QuickEraseBytes - BlockSize}, {size - wire.QuickEraseBytes, last}}
}

func offset(src io.Reader, s span) (int64, error) {
	var b [8]byte
	if _, err := io.ReadFull(src, b[:]); err != nil {
		return 0, fmt.Errorf("canary offset: %w", err)
	}
	lo := (s.lo + BlockSize - 1) / BlockSize
	blocks := s.hi/BlockSize - lo + 1
	return (lo + int64(binary.LittleEndian.Uint64(b[:])%uint64(blocks))) * BlockSize, nil
}

// openBlock opens a device bypassing the page cache where it can (a
// regular file on tmpfs refuses O_DIRECT), so a read-back sees the media.
func openBlock(p string, flag int) (*os.File, error) {
	f, err := os.OpenFile(p, flag|syscall.O_DIRECT, 0)
	if err == nil {
		return f, nil
	}
	return os.OpenFile(p, flag, 0)
}

// aligned returns a BlockSize buffer aligned for O_DIRECT.
func aligned() []byte {
	b := make([]byte, 2*BlockSize)
	off := int(uintptr(unsafePointer(b)) & (BlockSize - 1))
	if off != 0 {
		off = BlockSize - off
	}
	return b[off : off+BlockSize]
}
