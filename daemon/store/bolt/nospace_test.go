package bolt

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestNoSpaceIsUnavailableNamingTheFile: a write that failed for want of
// space, wrapped or only formatted into bbolt's text, is unavailable and
// marked ErrNoSpace with the file in its text; other errors are not.
func TestNoSpaceIsUnavailableNamingTheFile(t *testing.T) {
	pe := &os.PathError{Op: "write", Path: "/s/maas-sidecar.db", Err: syscall.ENOSPC}
	for _, err := range []error{pe, fmt.Errorf("file resize error: %s", pe), &os.PathError{Op: "sync", Path: "/s/maas-sidecar.db", Err: syscall.EDQUOT}} {
		got := wrapTx("store.X", err)
		if lifecycle.ErrorCode(got) != lifecycle.CodeUnavailable || !errors.Is(got, lifecycle.ErrNoSpace) || !lifecycle.IsRetryable(got) {
			t.Errorf("%v -> %v (%s), want unavailable no space", err, got, lifecycle.ErrorCode(got))
		}
		if want := "/s/maas-sidecar.db"; !strings.Contains(got.Error(), want) {
			t.Errorf("%v does not name %s", got, want)
		}
	}
	if got := wrapTx("store.X", errors.New("boom")); errors.Is(got, lifecycle.ErrNoSpace) || lifecycle.ErrorCode(got) != lifecycle.CodeInternal {
		t.Errorf("another error became %v", got)
	}
}
