package freeport

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestPortIsBelowTheEphemeralRangeAndBindable: every port handed out is
// below the range's start, distinct, and can be listened on.
func TestPortIsBelowTheEphemeralRangeAndBindable(t *testing.T) {
	top := ephemeralStart(rangeFile)
	seen := map[int]bool{}
	for range 50 {
		p, err := Port()
		if err != nil {
			t.Fatal(err)
		}
		if p < lowest || p >= top {
			t.Fatalf("port %d outside [%d, %d)", p, lowest, top)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d: %v", p, err)
		}
		ln.Close()
	}
}

// TestEphemeralStart reads the range's first port and falls back to
// Linux's default on a missing, garbled or too low file.
func TestEphemeralStart(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		content string
		want    int
	}{
		{"40000\t60999\n", 40000},
		{"garbage", 32768},
		{"", 32768},
		{"1024 65535", 32768},
	} {
		path := filepath.Join(dir, "range")
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := ephemeralStart(path); got != tc.want {
			t.Errorf("%q: %d, want %d", tc.content, got, tc.want)
		}
	}
	if got := ephemeralStart(filepath.Join(dir, "missing")); got != 32768 {
		t.Errorf("missing file: %d, want 32768", got)
	}
}
