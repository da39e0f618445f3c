//go:build dqlite

package dqlite

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/canonical/go-dqlite/app"
	"github.com/canonical/go-dqlite/client"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TLS secures the traffic between nodes: Raft replication and the queries
// a node forwards to the leader. Both configurations are needed: Listen
// (server side: this node's certificate, client certificates required and
// verified against the cluster's CA) and Dial (client side: this node's
// certificate, peers verified against the same CA). go-dqlite's
// app.SimpleTLSConfig builds a matching pair from one certificate and CA.
type TLS struct {
	Listen *tls.Config
	Dial   *tls.Config
}

// handoverTimeout bounds the leadership handover of a graceful stop: a
// transfer takes milliseconds when a leader answers; a node that finds
// none (the last member, a lost quorum) stops without it.
const handoverTimeout = 5 * time.Second

// socketNameOnce names this process's engine sockets (nameSocket) once.
var socketNameOnce sync.Once

// nameSocket makes the local sockets of this process's TLS nodes its
// own. Under TLS, go-dqlite's app binds the engine to the abstract Unix
// socket "@dqlite-<node id>" and relays the TLS connections to it; the
// first node of every cluster has the same fixed id, so two clusters
// formed on one host (two daemons of different clusters, a store command
// beside a test cluster) collide on it ("failed to set bind address").
// The only knob go-dqlite reads for that name is SNAP_INSTANCE_NAME
// ("@snap.<name>.dqlite-<id>"); naming it after the process keeps the
// socket private to it (a value inherited from a parent that did the
// same is replaced; inside a real snap, SNAP set, it is left alone). The
// socket never leaves the host.
func nameSocket() {
	if os.Getenv("SNAP") == "" {
		_ = os.Setenv("SNAP_INSTANCE_NAME", fmt.Sprintf("maas-sidecar-%d", os.Getpid()))
	}
}

// Node is one running member of a dqlite cluster. Stores opened on it
// with Node.Open share it; Close stops it.
type Node struct {
	app     *app.App
	log     *slog.Logger
	dial    client.DialFunc // to other members, bounded (boundedDial)
	nodes   fileNodeStore   // the member list the app keeps
	stopped atomic.Bool
	// lockMoved is when this node last moved the leadership to drop a
	// stalled write lock (unix nanoseconds; lockMoveDue).
	lockMoved atomic.Int64
}

// StartNode starts the dqlite node whose data lives in dir and waits until
// it is ready: it formed a cluster (Join empty, first start), joined the
// members in Join, or rejoined its own cluster (a restart, which ignores
// Join). It uses Options' Address, Join, TLS and Logger.
func StartNode(ctx context.Context, dir string, opts Options) (*Node, error) {
	const op = "store.StartNode"
	if opts.Address == "" {
		return nil, lifecycle.Invalid(op, "address", "a dqlite node needs an address")
	}
	log := opts.logger()
	appOpts := []app.Option{app.WithAddress(opts.Address), app.WithCluster(opts.Join), app.WithLogFunc(logFunc(log)), snapshotOption()}
	var dialTLS *tls.Config
	if t := opts.TLS; t != nil {
		if t.Listen == nil || t.Dial == nil {
			return nil, lifecycle.Invalid(op, "tls", "TLS between dqlite nodes needs both the listen and the dial configuration")
		}
		appOpts = append(appOpts, app.WithTLS(t.Listen, t.Dial))
		socketNameOnce.Do(nameSocket)
		dialTLS = t.Dial
	}
	a, err := app.New(dir, appOpts...)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	if err := a.Ready(ctx); err != nil {
		a.Close()
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op,
			"dqlite node %s did not join its cluster (members %v): %v", opts.Address, opts.Join, err)
	}
	return &Node{app: a, log: log, dial: boundedDial(dialTLS), nodes: newFileNodeStore(dir)}, nil
}

// Address is the node's Raft address.
func (n *Node) Address() string { return n.app.Address() }

// Leader returns the address of the cluster's current leader.
func (n *Node) Leader(ctx context.Context) (string, error) {
	const op = "store.Leader"
	cli, err := n.leader(ctx)
	if err != nil {
		return "", lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	defer cli.Close()
	info, err := cli.Leader(ctx)
	if err != nil || info == nil {
		return "", lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	return info.Address, nil
}

// Close hands the node's leadership and vote over to another member, if
// one is reachable (bounded by 5 s), then stops the node. It is safe to
// call twice.
func (n *Node) Close() error { return n.stop(true) }

func (n *Node) stop(handover bool) error {
	if n.stopped.Swap(true) {
		return nil
	}
	if handover {
		ctx, cancel := context.WithTimeout(context.Background(), handoverTimeout)
		defer cancel()
		if err := n.app.Handover(ctx); err != nil {
			// a lone or partitioned node has no one to hand over to: stop anyway
			n.log.Warn("dqlite handover before stop failed", "address", n.Address(), "err", err)
		}
	}
	return n.app.Close()
}

func logFunc(l *slog.Logger) client.LogFunc {
	return func(lvl client.LogLevel, format string, a ...any) {
		if lvl >= client.LogWarn {
			l.Warn("dqlite: " + fmt.Sprintf(format, a...))
		}
	}
}
