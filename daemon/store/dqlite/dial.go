//go:build dqlite

package dqlite

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/canonical/go-dqlite/client"
	dqdriver "github.com/canonical/go-dqlite/driver"
)

// dialBound bounds the TCP connection and the TLS handshake to one
// member; attemptBound one attempt to ask a member who leads. A member
// that is frozen (SIGSTOP, a paused VM) still has its connections
// accepted by the kernel but never answers the handshake: go-dqlite
// tries the members in a fixed order, each under the whole remaining
// deadline, so without these bounds a frozen first member used up every
// call's deadline and the live leader behind it was never asked.
const (
	dialBound    = 2 * time.Second
	attemptBound = 3 * time.Second
)

// boundedDial connects to a member over TCP and, with t, completes the
// TLS handshake (peer name: the address's host, as go-dqlite's own TLS
// dial), all within dialBound.
func boundedDial(t *tls.Config) client.DialFunc {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, dialBound)
		defer cancel()
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil || t == nil {
			return conn, err
		}
		cfg := t.Clone()
		if cfg.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				conn.Close()
				return nil, err
			}
			cfg.ServerName = host
		}
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, err
		}
		return tc, nil
	}
}

// fileNodeStore is the member list go-dqlite's app keeps in its data
// dir (cluster.yaml, rewritten as members come and go), read afresh on
// every Get so that the store's own driver follows the app's updates.
type fileNodeStore struct{ path string }

func newFileNodeStore(dir string) fileNodeStore {
	return fileNodeStore{path: filepath.Join(dir, "cluster.yaml")}
}

// Get reads the member list.
func (f fileNodeStore) Get(ctx context.Context) ([]client.NodeInfo, error) {
	s, err := client.NewYamlNodeStore(f.path)
	if err != nil {
		return nil, err
	}
	return s.Get(ctx)
}

// Set writes the member list.
func (f fileNodeStore) Set(ctx context.Context, nodes []client.NodeInfo) error {
	s, err := client.NewYamlNodeStore(f.path)
	if err != nil {
		return err
	}
	return s.Set(ctx, nodes)
}

// leader connects to the cluster's leader with the bounded dial.
func (n *Node) leader(ctx context.Context) (*client.Client, error) {
	return client.FindLeader(ctx, n.nodes, client.WithDialFunc(n.dial), client.WithLogFunc(logFunc(n.log)))
}

// driverSeq numbers the drivers registered with database/sql.
var driverSeq atomic.Int64

// openDB opens database through a go-dqlite driver of the node's own:
// the member list from the app's file, the bounded dial, and
// attemptBound per member asked (the app's driver has neither bound). It
// waits, within ctx, until a leader answers.
func (n *Node) openDB(ctx context.Context, database string) (*sql.DB, error) {
	d, err := dqdriver.New(n.nodes, dqdriver.WithDialFunc(dqdriver.DialFunc(n.dial)),
		dqdriver.WithAttemptTimeout(attemptBound), dqdriver.WithLogFunc(logFunc(n.log)))
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("maas-sidecar-dqlite-%d", driverSeq.Add(1))
	sql.Register(name, d)
	db, err := sql.Open(name, database)
	if err != nil {
		return nil, err
	}
	for {
		err = db.PingContext(ctx)
		if err == nil || !errors.Is(err, dqdriver.ErrNoAvailableLeader) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
