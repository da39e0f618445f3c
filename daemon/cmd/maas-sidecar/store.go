package main

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// daemonStore is the open store plus the readiness check built on it.
type daemonStore struct {
	lifecycle.Store
}

// Check passes when the store answers a read.
func (s daemonStore) Check(ctx context.Context) error {
	_, err := s.ListAdminTokens(ctx)
	return err
}

// startStore opens the bbolt store (its commit latency goes to onCommit)
// and makes sure the first admin token exists; on failure nothing stays open.
func startStore(ctx context.Context, cfg config.Config, log *slog.Logger, onCommit func(time.Duration)) (daemonStore, error) {
	st, err := bolt.Open(filepath.Join(cfg.StateDir, bolt.FileName), bolt.Options{
		Logger:      log.With("component", "store"),
		LockTimeout: cfg.StoreLockTimeout,
		OnCommit:    onCommit,
	})
	if err != nil {
		return daemonStore{}, err
	}
	_, err = admintoken.Ensure(ctx, st, admintoken.Options{Dir: cfg.StateDir, Logger: log.With("component", "admintoken")})
	if err != nil {
		return daemonStore{}, errors.Join(err, st.Close())
	}
	return daemonStore{st}, nil
}
