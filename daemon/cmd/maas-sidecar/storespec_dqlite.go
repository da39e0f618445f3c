//go:build dqlite

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// openSpecDqlite starts the dqlite node of spec (forming its cluster, joining
// spec.join, or rejoining its own) and opens the store on it, with the
// member's TLS when the data dir is a daemon's (see specTLS). A source's
// data dir must exist; a target's is created.
func openSpecDqlite(ctx context.Context, spec storeSpec, source bool, log *slog.Logger) (openedStore, error) {
	t, err := specTLS(spec)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(spec.path); source && errors.Is(err, os.ErrNotExist) {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "store.Open", "no dqlite data dir at %s", spec.path)
	}
	if err := os.MkdirAll(spec.path, 0o700); err != nil {
		return nil, fmt.Errorf("store %s: %w", spec, err)
	}
	return dqlite.Open(ctx, spec.path, dqlite.Options{Address: spec.address, Join: spec.join, TLS: t, Logger: log})
}

// specTLS is the TLS of the node a store command starts: never
// plaintext, not even on loopback. A data dir that is a daemon's
// (<state_dir>/dqlite beside <state_dir>/pki holding its CA) talks to its
// peers as that daemon does, with a member certificate of its store CA.
// Any other data dir runs alone under a store CA made for this command
// and kept in memory only, so nothing but this process can dial it; it
// cannot join other members.
func specTLS(spec storeSpec) (*dqlite.TLS, error) {
	stateDir := filepath.Dir(filepath.Clean(spec.path))
	host, _, err := net.SplitHostPort(spec.address)
	if err != nil {
		return nil, usageError(fmt.Sprintf("store %s: address %q is not host:port", spec, spec.address))
	}
	_, err = os.Stat(filepath.Join(stateDir, "pki", pki.CACertFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		if len(spec.join) > 0 {
			return nil, usageError(fmt.Sprintf("store %s: joining members needs a daemon's data dir (<state_dir>/%s beside its pki/): %s has no %s",
				spec, DqliteDir, stateDir, filepath.Join("pki", pki.CACertFile)))
		}
		p, err := pki.InMemory(pki.Options{})
		if err != nil {
			return nil, err
		}
		_, t, err := memberTLS(p, host, false)
		return t, err
	case err != nil:
		return nil, fmt.Errorf("store %s: %w", spec, err)
	}
	p, err := openPKI(stateDir)
	if err != nil {
		return nil, err
	}
	_, t, err := memberTLS(p, host, false)
	return t, err
}
