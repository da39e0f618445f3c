package main

import (
	"context"
	"crypto/ed25519"
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
// and checked page by page, then signed with key into out.
func onlineBackup(ctx context.Context, from storeSpec, out string, key ed25519.PrivateKey, stdout io.Writer) error {
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
	n, err := signFetched(out, key, resp.Body)
	if err == nil {
		fmt.Fprintf(stdout, "backed up %s to %s through the running daemon at %s (bbolt file, %d bytes)\n", from, out, base, n)
	}
	return err
}

// signFetched copies the online backup body to a temporary file beside
// out, checks that it is a sound store file, and signs it into out.
func signFetched(out string, key ed25519.PrivateKey, body io.Reader) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".fetch-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := io.Copy(tmp, body)
	if err != nil {
		return 0, fmt.Errorf("reading the online backup: %w", err)
	}
	if _, err := bolt.Status(tmp.Name(), bolt.Options{}); err != nil {
		return 0, fmt.Errorf("the online backup is not a sound store file: %w", err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return n, writeSigned(out, key, func(w io.Writer) error { _, err := io.Copy(w, tmp); return err })
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
