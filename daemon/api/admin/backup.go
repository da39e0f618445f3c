package admin

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// BackupPath is the online backup route.
const BackupPath = Prefix + "/backup"

// StoreHeader names, in the online backup's answer, the store file it is
// a snapshot of (Config.BackupStore; absent when the store has no file).
const StoreHeader = "X-Maas-Sidecar-Store"

// Backup writes a consistent snapshot of the store while the daemon runs
// (the bbolt store's WriteBackup satisfies it: a copy of the store file).
type Backup interface {
	// WriteBackup writes the snapshot to w, calling start with its size
	// in bytes (-1 when unknown) before the first byte. Errors:
	// unavailable, internal.
	WriteBackup(ctx context.Context, w io.Writer, start func(size int64)) (int64, error)
}

// stream is an answer written by the handler itself: a body that is not
// JSON. It writes a problem answer when it fails before its first byte.
type stream func(w http.ResponseWriter) error

// backup answers GET /backup with the store snapshot as a download,
// audited before it starts (so the snapshot holds its own audit entry).
func (a *API) backup(r *http.Request, c *call) (int, any, error) {
	const op = "admin.backup"
	if a.snap == nil {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op,
			"this store has no online backup; run maas-sidecar backup (see the operations guide)")
	}
	a.audit(r.Context(), r, c, change{action: "store.backup", kind: "store"})
	name := fmt.Sprintf("maas-sidecar-%s%s", a.now().UTC().Format("20060102T150405Z"), a.snapExt)
	return http.StatusOK, stream(func(w http.ResponseWriter) error {
		started := false
		_, err := a.snap.WriteBackup(r.Context(), w, func(size int64) {
			started = true
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
			if a.snapFile != "" {
				w.Header().Set(StoreHeader, a.snapFile)
			}
			if size >= 0 {
				w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
			}
			w.WriteHeader(http.StatusOK)
		})
		if err != nil && !started {
			problem.Write(w, err)
		}
		return err
	}), nil
}
