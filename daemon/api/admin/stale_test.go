package admin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestStaleWriter(t *testing.T) {
	taken := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	now := func() time.Time { return taken.Add(42 * time.Second) }
	for _, tc := range []struct {
		name  string
		stale bool
		want  http.Header
	}{
		{"fresh answer", false, http.Header{}},
		{"stale answer", true, http.Header{"Warning": {StaleWarning}, "Age": {"42"}, HeaderSnapshotTaken: {"2026-01-01T10:00:00Z"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, sr := lifecycle.AllowStale(context.Background())
			if tc.stale {
				lifecycle.MarkStale(ctx, taken)
			}
			rec := httptest.NewRecorder()
			w := &staleWriter{ResponseWriter: rec, stale: sr, now: now}
			if _, err := w.Write([]byte("{}")); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, rec.Header()); d != "" || rec.Code != http.StatusOK {
				t.Errorf("status %d, headers (-want +got):\n%s", rec.Code, d)
			}
		})
	}
}
