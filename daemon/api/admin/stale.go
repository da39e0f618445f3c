package admin

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Headers of an answer read from a stale snapshot of the store (a
// clustered store without quorum): the standard Warning 110 and Age (in
// seconds), and the snapshot's time.
const (
	StaleWarning        = `110 - "Response is Stale"`
	HeaderSnapshotTaken = "X-Store-Snapshot-Taken"
)

// staleWriter adds the stale headers before the status line when a read
// of the request was answered from a snapshot. GET and HEAD requests get
// one; their reads may be stale (lifecycle.AllowStale), other requests'
// never are.
type staleWriter struct {
	http.ResponseWriter
	stale *lifecycle.StaleRead
	now   func() time.Time
	wrote bool
}

func (w *staleWriter) WriteHeader(status int) {
	if !w.wrote {
		w.wrote = true
		if at, ok := w.stale.AsOf(); ok {
			h := w.Header()
			h.Set("Warning", StaleWarning)
			h.Set("Age", strconv.Itoa(int(max(0, w.now().Sub(at).Seconds()))))
			h.Set(HeaderSnapshotTaken, at.UTC().Format(time.RFC3339))
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *staleWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (streams flush).
func (w *staleWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// staleNotFound turns "not found" from a stale snapshot (a store without
// quorum answering from its replica) into unavailable: the record may
// well exist, created after the snapshot was taken, and a client that
// waits (a watch) must not take the answer as final.
func staleNotFound(ctx context.Context, err error) error {
	asOf, stale := lifecycle.StaleAnswered(ctx)
	if !stale || lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		return err
	}
	return lifecycle.Errorf(lifecycle.CodeUnavailable, "admin", "this daemon's store has no quorum and its snapshot (taken %s) does not have it: %v; try again once the cluster is back",
		asOf.UTC().Format(time.RFC3339), err)
}
