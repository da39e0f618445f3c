package bolt

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// noSpace reports a write that failed for want of space on the store
// file's filesystem as unavailable, marked lifecycle.ErrNoSpace, keeping
// the cause (it names the file); nil for any other error. bbolt
// formats some of its errors with %s, so the cause's text is matched too.
func noSpace(op string, err error) error {
	full := errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
	for _, e := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT} {
		full = full || strings.Contains(err.Error(), e.Error())
	}
	if !full {
		return nil
	}
	return &lifecycle.Error{Code: lifecycle.CodeUnavailable, Op: op,
		Err: fmt.Errorf("%w (the store file's filesystem is full; writes resume when space returns): %v", lifecycle.ErrNoSpace, err)}
}
