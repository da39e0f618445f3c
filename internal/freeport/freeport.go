package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// lowest is the first port handed out; ports below it are left to
// well-known and registered services.
const lowest = 10000

// rangeFile is where Linux keeps the ephemeral port range.
const rangeFile = "/proc/sys/net/ipv4/ip_local_port_range"

var (
	mu     sync.Mutex
	handed = map[int]bool{}
)

// Port returns a loopback TCP port below the ephemeral range that
// nothing listens on now and that this process has not handed out
// before.
func Port() (int, error) {
	top := ephemeralStart(rangeFile)
	mu.Lock()
	defer mu.Unlock()
	for range 200 {
		p := lowest + rand.IntN(top-lowest)
		if handed[p] {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		ln.Close()
		handed[p] = true
		return p, nil
	}
	return 0, fmt.Errorf("freeport: no free loopback port in %d-%d after 200 tries", lowest, top-1)
}

// TB is the part of testing.TB that Addr uses.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// Addr returns "127.0.0.1:PORT" for a port from Port; it fails t when
// there is none.
func Addr(t TB) string {
	t.Helper()
	p, err := Port()
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
}

// ephemeralStart reads the first port of the ephemeral range from path;
// it falls back to Linux's default, 32768, when path is unreadable or
// leaves too few ports below it.
func ephemeralStart(path string) int {
	const fallback = 32768
	b, err := os.ReadFile(path)
	if err != nil {
		return fallback
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return fallback
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < lowest+1000 {
		return fallback
	}
	return n
}
