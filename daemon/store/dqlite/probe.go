//go:build dqlite

package dqlite

import (
	"context"
	"sync"
	"time"

	"github.com/canonical/go-dqlite/client"
)

// ProbeTimeout bounds one probe of a member.
const ProbeTimeout = 2 * time.Second

// Reach is what one probe of a member learned. dqlite's client does not
// expose how far a follower's log trails the leader's, so this is the
// honest stand-in for replication lag: a member that answers promptly is
// replicating (Raft retries it from the leader); one that does not answer
// is falling behind for as long as it stays silent.
type Reach struct {
	// Answered is true when the member accepted a connection and answered
	// a describe request within ProbeTimeout.
	Answered bool
	// RoundTrip is how long the connection and the answer took.
	RoundTrip time.Duration
	// Err says why it did not answer.
	Err error
}

// Probe connects to the member at address (with the cluster's TLS) and
// asks it to describe itself, within ProbeTimeout.
func (n *Node) Probe(ctx context.Context, address string) Reach {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	start := time.Now()
	cli, err := client.New(ctx, address, client.WithDialFunc(n.dial), client.WithLogFunc(logFunc(n.log)))
	if err != nil {
		return Reach{RoundTrip: time.Since(start), Err: err}
	}
	defer cli.Close()
	if _, err := cli.Describe(ctx); err != nil {
		return Reach{RoundTrip: time.Since(start), Err: err}
	}
	return Reach{Answered: true, RoundTrip: time.Since(start)}
}

// ProbeAll probes every address at once; the answer is in the order of
// addresses.
func (n *Node) ProbeAll(ctx context.Context, addresses []string) []Reach {
	out := make([]Reach, len(addresses))
	var wg sync.WaitGroup
	for i, a := range addresses {
		wg.Go(func() { out[i] = n.Probe(ctx, a) })
	}
	wg.Wait()
	return out
}
