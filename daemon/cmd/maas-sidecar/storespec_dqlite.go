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

// specTLS is the TLS of the node a store command starts. A data dir that
// is a daemon's (<state_dir>/dqlite beside <state_dir>/pki holding the
// CA) talks to its peers as that daemon does, with a member certificate
// of its CA. Without that CA only a loopback address is accepted, in
// plaintext: no Raft traffic leaves the host unencrypted.
func specTLS(spec storeSpec) (*dqlite.TLS, error) {
	stateDir := filepath.Dir(filepath.Clean(spec.path))
	host, _, err := net.SplitHostPort(spec.address)
	if err != nil {
		return nil, usageError(fmt.Sprintf("store %s: address %q is not host:port", spec, spec.address))
	}
	_, err = os.Stat(filepath.Join(stateDir, "pki", pki.CACertFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, usageError(fmt.Sprintf("store %s: address %s is not loopback and %s has no CA (pki/%s) to secure the traffic between members with: "+
				"use the data dir of a daemon (<state_dir>/%s) or a loopback address", spec, spec.address, stateDir, pki.CACertFile, DqliteDir))
		}
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("store %s: %w", spec, err)
	}
	p, err := openPKI(stateDir)
	if err != nil {
		return nil, err
	}
	_, t, err := memberTLS(p, host)
	return t, err
}
