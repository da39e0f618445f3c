package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/daemon/notifyfwd"
)

// checkSource sets where the database is: --dsn with --password-file, or
// the regiond.conf files (MAAS's deb and snap paths by default).
func checkSource(dsn, pwFile string, regiond []string, cfg *notifyfwd.Config) error {
	switch {
	case dsn != "" && len(regiond) > 0:
		return usageError("--dsn and --regiond-conf exclude each other")
	case dsn == "" && pwFile != "":
		return usageError("--password-file goes with --dsn (regiond.conf holds its own password)")
	case dsn == "":
		if len(regiond) == 0 {
			regiond = pgnotify.RegiondConfPaths
		}
		cfg.Source = pgnotify.Source{RegiondConf: regiond}
		return nil
	case pwFile == "":
		return usageError("--dsn needs --password-file: a DSN never carries the password")
	}
	if err := pgnotify.ValidateDSN(dsn); err != nil {
		return usageError("--dsn: " + dsnProblem(err))
	}
	cfg.Source = pgnotify.Source{DSN: dsn, Password: passwordFile(pwFile)}
	_, err := cfg.Source.Password(context.Background())
	return wrapUsage("--password-file", err)
}

// dsnProblem is ValidateDSN's message without its operation prefix.
func dsnProblem(err error) string {
	var le *lifecycle.Error
	if errors.As(err, &le) {
		return le.Msg
	}
	return err.Error()
}

// passwordFile reads path at each connect; surrounding white space is
// dropped and an empty file is an error.
func passwordFile(path string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("database password: %w", err)
		}
		pw := strings.TrimSpace(string(b))
		if pw == "" {
			return "", fmt.Errorf("database password: %s is empty", path)
		}
		return pw, nil
	}
}
