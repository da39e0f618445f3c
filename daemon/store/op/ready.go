package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Ready is the check a backend makes before it opens a transaction for
// the operation name: unavailable when the store is closed or ctx is
// done.
func Ready(ctx context.Context, name string, closed bool) error {
	if closed {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, name, "store is closed")
	}
	if err := ctx.Err(); err != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, name, err)
	}
	return nil
}

// Pending returns the migrations of ms newer than version from, in order.
func Pending[M any](ms []M, from int, version func(M) int) []M {
	var out []M
	for _, m := range ms {
		if version(m) > from {
			out = append(out, m)
		}
	}
	return out
}
