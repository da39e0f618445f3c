package bolt_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// TestOpenRefusesDamagedFileNamingItAndLeavesItUntouched truncates a
// store file, or writes garbage over its middle, and opens it: Open
// fails naming the file as damaged, instead of crashing on a bus error
// or a bbolt panic, and the file keeps its bytes and its mtime.
func TestOpenRefusesDamagedFileNamingItAndLeavesItUntouched(t *testing.T) {
	for name, damage := range map[string]func([]byte) []byte{
		"truncated to a third":   func(b []byte) []byte { return b[:len(b)/3] },
		"truncated by a quarter": func(b []byte) []byte { return b[:len(b)-len(b)/4] },
		"truncated to 100 bytes": func(b []byte) []byte { return b[:100] },
		"garbage in the middle": func(b []byte) []byte {
			for i := len(b) / 3; i < 2*len(b)/3; i++ {
				b[i] = byte(i*7 + 3)
			}
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), bolt.FileName)
			writeStore(t, path)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b = damage(b)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			s, err := bolt.Open(path, bolt.Options{})
			if err == nil {
				s.Close()
				t.Fatal("Open accepted the damaged file")
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
				t.Errorf("error %q does not name %s as damaged", err, path)
			}
			if lifecycle.ErrorCode(err) != lifecycle.CodeInternal {
				t.Errorf("code %s, want internal", lifecycle.ErrorCode(err))
			}
			after, _ := os.ReadFile(path)
			fi, _ := os.Stat(path)
			if !bytes.Equal(after, b) || !fi.ModTime().Equal(old) {
				t.Errorf("the file changed: %d bytes (was %d), mtime %v (was %v)", len(after), len(b), fi.ModTime(), old)
			}
		})
	}
}

// writeStore writes a store of a few dozen pages.
func writeStore(t *testing.T, path string) {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{Now: storetest.NewClock().Now, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 300 {
		if _, err := s.AppendAudit(context.Background(), lifecycle.AuditEntry{Action: fmt.Sprintf("action-%d", i), Actor: "test", TargetKind: "site", TargetID: "s1"}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenRefusesFileOfOtherBboltFormat: a file whose meta pages carry
// another bbolt format version (written by an incompatible bbolt) is
// refused saying so, not called damaged, and left as it is.
func TestOpenRefusesFileOfOtherBboltFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	writeStore(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.LittleEndian.Uint32(b[16+8:]))
	for _, off := range []int{16, pageSize + 16} { // each meta page: version 3, checksum redone
		binary.LittleEndian.PutUint32(b[off+4:], 3)
		h := fnv.New64a()
		h.Write(b[off : off+56])
		binary.LittleEndian.PutUint64(b[off+56:], h.Sum64())
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := bolt.Open(path, bolt.Options{})
	if err == nil {
		s.Close()
		t.Fatal("Open accepted a file of another bbolt format version")
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "incompatible bbolt version") ||
		strings.Contains(msg, "damaged") {
		t.Errorf("error %q does not name %s as written by an incompatible bbolt version", msg, path)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
		t.Error("Open changed the file")
	}
}
