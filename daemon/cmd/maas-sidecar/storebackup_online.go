package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// onlineBackup writes the running daemon's online backup
// (GET /api/v1/admin/backup) to out: what `backup` does when the bbolt
// store it was asked for is locked by that daemon. The daemon is at
// MAAS_SIDECAR_ADDR (default 127.0.0.1:5290); the token is
// MAAS_SIDECAR_TOKEN or the state dir's admin.token. The copy is opened
// and checked page by page before it is renamed into place.
func onlineBackup(ctx context.Context, from storeSpec, out string, stdout io.Writer) error {
	base := firstNonEmpty(os.Getenv("MAAS_SIDECAR_ADDR"), cli.DefaultAddr)
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	tok, err := adminToken(filepath.Dir(from.path))
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+admin.BackupPath, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Audit-Reason", "maas-sidecar backup --out "+filepath.Base(out))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("GET %s answered %s: %s", admin.BackupPath, resp.Status, strings.TrimSpace(string(msg)))
	}
	if err := sameStore(resp.Header.Get(admin.StoreHeader), from.path, base); err != nil {
		return err
	}
	var n int64
	err = writeAtomically(out, func(f *os.File) error {
		if n, err = io.Copy(f, resp.Body); err != nil {
			return fmt.Errorf("reading the online backup: %w", err)
		}
		if _, err := bolt.Status(f.Name(), bolt.Options{}); err != nil {
			return fmt.Errorf("the online backup is not a sound store file: %w", err)
		}
		return nil
	})
	if err == nil {
		fmt.Fprintf(stdout, "backed up %s to %s through the running daemon at %s (bbolt file, %d bytes)\n", from, out, base, n)
	}
	return err
}

// sameStore refuses the online backup of a daemon whose store file
// (served, from its answer's header) is not path: the lock on path is
// held by some other process, whose store this is not.
func sameStore(served, path, daemon string) error {
	want, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if served == "" || filepath.Clean(served) != want {
		return fmt.Errorf("the daemon at %s serves the store %q, not %s: another process holds the lock on %s; back it up where that process runs, or stop it",
			daemon, served, want, want)
	}
	return nil
}

// adminToken is MAAS_SIDECAR_TOKEN, or the admin.token in stateDir.
func adminToken(stateDir string) (string, error) {
	if tok := os.Getenv("MAAS_SIDECAR_TOKEN"); tok != "" {
		return tok, nil
	}
	b, err := os.ReadFile(filepath.Join(stateDir, "admin.token"))
	if err != nil {
		return "", fmt.Errorf("no admin token: set MAAS_SIDECAR_TOKEN or run where %s is readable (%w)", filepath.Join(stateDir, "admin.token"), err)
	}
	return strings.TrimSpace(string(b)), nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
