package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// migrateFlags are migrate's command line.
type migrateFlags struct {
	cfg   config.Config
	check bool
}

// runMigrate is `maas-sidecar migrate`: it brings the store file to this
// binary's schema version (the package runs it on upgrade), printing a
// line per migration and the final version; with --check it only prints
// what is pending and exits 1 if anything is. No store file is not an
// error: serve creates one at the newest version.
func runMigrate(args []string, stdout, stderr io.Writer) int {
	f, err := parseMigrate(args, stderr)
	if code, stop := parseExit("migrate", err, stderr); stop {
		return code
	}
	path := filepath.Join(f.cfg.StateDir, bolt.FileName)
	opts := bolt.Options{LockTimeout: f.cfg.StoreLockTimeout, Logger: slog.New(slog.DiscardHandler)}
	if f.check {
		st, err := bolt.Status(path, opts)
		return reportStatus(stdout, stderr, path, st, err)
	}
	rep, err := bolt.Migrate(path, opts)
	return reportMigration(stdout, stderr, path, rep, err)
}

func reportStatus(stdout, stderr io.Writer, path string, st lifecycle.SchemaStatus, err error) int {
	if code, done := migrateError(stdout, stderr, path, err); done {
		return code
	}
	fmt.Fprintf(stdout, "%s: schema version %d, this binary's is %d\n", path, st.Version, st.Latest)
	for _, m := range st.Pending {
		fmt.Fprintf(stdout, "pending: version %d: %s\n", m.Version, m.Name)
	}
	if len(st.Pending) > 0 {
		fmt.Fprintln(stdout, "run maas-sidecar migrate with the daemon stopped (serve also migrates when it starts)")
		return exitFail
	}
	fmt.Fprintln(stdout, "up to date")
	return exitOK
}

func reportMigration(stdout, stderr io.Writer, path string, rep lifecycle.MigrationReport, err error) int {
	if rep.Backup != "" {
		fmt.Fprintf(stdout, "%s: schema version %d, backed up to %s\n", path, rep.From, rep.Backup)
	}
	for _, m := range rep.Ran {
		fmt.Fprintf(stdout, "migrated to version %d: %s (%s)\n", m.Version, m.Name, m.Detail)
	}
	if code, done := migrateError(stdout, stderr, path, err); done {
		return code
	}
	fmt.Fprintf(stdout, "%s: schema version %d, up to date\n", path, rep.To)
	return exitOK
}

// migrateError reports err, if any: no store is fine (exit 0), a store
// held by a running daemon or any other error is a failure.
func migrateError(stdout, stderr io.Writer, path string, err error) (code int, done bool) {
	switch {
	case err == nil:
		return 0, false
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		fmt.Fprintf(stdout, "%s: no store yet, nothing to migrate (serve creates it at schema version %d)\n", path, bolt.Latest())
		return exitOK, true
	case lifecycle.ErrorCode(err) == lifecycle.CodeUnavailable:
		fmt.Fprintf(stderr, "maas-sidecar migrate: %s (stop maas-sidecar first)\n", err)
	default:
		fmt.Fprintf(stderr, "maas-sidecar migrate: %s\n", err)
	}
	return exitFail, true
}

// parseMigrate reads migrate's flags and the config file as serve does:
// the state directory and the store lock timeout come from them.
func parseMigrate(args []string, stderr io.Writer) (migrateFlags, error) {
	def := config.Default()
	fs := flag.NewFlagSet("maas-sidecar migrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("config", config.DefaultPath, "YAML config `file`; a missing file is an error unless it is the default")
	stateDir := fs.String("state-dir", def.StateDir, "state `directory` holding the store file")
	check := fs.Bool("check", false, "only print the pending migrations; exit 1 if there are any")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: maas-sidecar migrate [flags]\n\nbrings the store to this binary's schema version, after a backup of it; run it with the daemon stopped")
			fs.PrintDefaults()
			return migrateFlags{}, err
		}
		return migrateFlags{}, usageError(err.Error() + " (see maas-sidecar migrate -h)")
	}
	if fs.NArg() > 0 {
		return migrateFlags{}, usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	cfg, err := config.Load(*path, given["config"])
	if err != nil {
		return migrateFlags{}, err
	}
	override(&cfg.StateDir, *stateDir, given["state-dir"])
	return migrateFlags{cfg: cfg, check: *check}, cfg.Validate()
}
