package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
)

// storeSpec names a store on the command line: bolt:<state dir or file>
// or dqlite:<data dir>,address=<host:port>[,join=<host:port>]...
type storeSpec struct {
	backend string
	path    string
	address string
	join    []string
}

func (s storeSpec) String() string { return s.backend + ":" + s.path }

// parseSpec reads a store spec; a usage error names what is wrong.
func parseSpec(s string) (storeSpec, error) {
	backend, rest, ok := strings.Cut(s, ":")
	parts := strings.Split(rest, ",")
	spec := storeSpec{backend: backend, path: parts[0]}
	if !ok || spec.path == "" || (backend != "bolt" && backend != "dqlite") {
		return spec, usageError(fmt.Sprintf("store %q is not bolt:<dir or file> or dqlite:<dir>,address=<host:port>", s))
	}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		switch {
		case backend == "dqlite" && k == "address" && v != "":
			spec.address = v
		case backend == "dqlite" && k == "join" && v != "":
			spec.join = append(spec.join, v)
		default:
			return spec, usageError(fmt.Sprintf("store %q: unknown option %q", s, p))
		}
	}
	if backend == "dqlite" && spec.address == "" {
		return spec, usageError(fmt.Sprintf("store %q: a dqlite store needs address=<host:port>", s))
	}
	if backend == "bolt" {
		if fi, err := os.Stat(spec.path); err == nil && fi.IsDir() || !strings.HasSuffix(spec.path, ".db") {
			spec.path = filepath.Join(spec.path, bolt.FileName)
		}
	}
	return spec, nil
}

// openedStore is a store the store commands read or write.
type openedStore interface {
	storecopy.Target
	Close() error
}

// openSpec opens the store spec names. A source must exist; a bolt store
// another process holds fails unavailable (the daemon is running).
func openSpec(ctx context.Context, spec storeSpec, source bool, log *slog.Logger) (openedStore, error) {
	if spec.backend == "dqlite" {
		return openSpecDqlite(ctx, spec, source, log)
	}
	if _, err := os.Stat(spec.path); source && errors.Is(err, os.ErrNotExist) {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "store.Open", "no store at %s", spec.path)
	}
	if err := os.MkdirAll(filepath.Dir(spec.path), 0o700); err != nil {
		return nil, err
	}
	st, err := bolt.Open(spec.path, bolt.Options{Logger: log})
	if lifecycle.ErrorCode(err) == lifecycle.CodeUnavailable {
		return nil, fmt.Errorf("%w: stop maas-sidecar first (an online backup of a running daemon: GET /api/v1/admin/backup)", err)
	}
	return st, err
}
