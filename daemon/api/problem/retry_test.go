package problem

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestEvery503CarriesRetryAfterAndNoSpaceItsCode: a 503 names no wait of
// its own gets the default Retry-After, a 429 keeps its own, a wait set
// by the caller is kept, other statuses get none, and a full disk is
// answered with the problem code no_space.
func TestEvery503CarriesRetryAfterAndNoSpaceItsCode(t *testing.T) {
	full := lifecycle.Wrap(lifecycle.CodeUnavailable, "store.X", fmt.Errorf("%w: write /s/maas-sidecar.db: no space left on device", lifecycle.ErrNoSpace))
	for _, tc := range []struct {
		name   string
		err    error
		preset string
		want   string
		code   string
	}{
		{"unavailable", lifecycle.Errorf(lifecycle.CodeUnavailable, "op", "x"), "", "5", "unavailable"},
		{"no space", full, "", "5", "no_space"},
		{"caller's wait kept", lifecycle.Errorf(lifecycle.CodeUnavailable, "op", "x"), "30", "30", "unavailable"},
		{"429 own wait", TooManyRequests("op", 1500*time.Millisecond), "", "2", "rate_limited"},
		{"not found", lifecycle.Errorf(lifecycle.CodeNotFound, "op", "x"), "", "", "not_found"},
	} {
		rec := httptest.NewRecorder()
		if tc.preset != "" {
			rec.Header().Set("Retry-After", tc.preset)
		}
		Write(rec, tc.err)
		if got := rec.Header().Get("Retry-After"); got != tc.want || !strings.Contains(rec.Body.String(), `"code":"`+tc.code+`"`) {
			t.Errorf("%s: %d Retry-After %q, body %s; want %q and code %s", tc.name, rec.Code, got, rec.Body, tc.want, tc.code)
		}
	}
}
