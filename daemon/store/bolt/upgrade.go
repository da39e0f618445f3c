package bolt

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
	bbolt "go.etcd.io/bbolt"
)

// Migrate brings the existing file at path to the newest schema, as Open
// does, and closes it. The report lists what ran, also when a migration
// failed (the file then stays at the last version that committed).
// not_found when there is no file: a new one needs no migration.
func Migrate(path string, opts Options) (lifecycle.MigrationReport, error) {
	if err := mustExist(path); err != nil {
		return lifecycle.MigrationReport{}, err
	}
	opts = opts.withDefaults()
	db, err := openDB(path, opts, false)
	if err != nil {
		return lifecycle.MigrationReport{}, err
	}
	rep, err := upgrade(db, opts.Logger)
	return rep, errors.Join(err, db.Close())
}

// upgrade creates a new file at Latest, or backs up and migrates an older
// one, or refuses a newer one; then makes sure every bucket exists.
func upgrade(db *bbolt.DB, log *slog.Logger) (rep lifecycle.MigrationReport, err error) {
	const op = "store.Open"
	var fresh bool
	err = db.View(func(tx *bbolt.Tx) (err error) {
		k, _ := tx.Cursor().First()
		fresh = k == nil
		rep.From, err = readVersion(tx)
		return err
	})
	if err != nil {
		return rep, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	if fresh {
		rep.From = Latest()
	}
	if rep.From > Latest() {
		return rep, tooNew(db.Path(), rep.From)
	}
	rep.To, rep.Ran = rep.From, []lifecycle.AppliedMigration{}
	if todo := pending(rep.From); len(todo) > 0 {
		if rep.Backup, err = backup(db, todo[0].Version); err != nil {
			return rep, lifecycle.Wrap(lifecycle.CodeInternal, op, fmt.Errorf("back up before migrating: %w", err))
		}
		log.Info("store backed up before migrating", "backup", rep.Backup, "from_version", rep.From, "to_version", Latest())
		if err := runMigrations(db, todo, &rep, log); err != nil {
			return rep, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
		}
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if fresh {
			return writeVersion(tx, Latest())
		}
		return nil
	})
	return rep, wrapTx(op, err)
}

// runMigrations runs todo in order, each in its own transaction that
// also records its version, so a crash resumes after the last commit.
func runMigrations(db *bbolt.DB, todo []migration, rep *lifecycle.MigrationReport, log *slog.Logger) error {
	for _, m := range todo {
		var detail string
		err := db.Update(func(tx *bbolt.Tx) (err error) {
			if detail, err = m.run(tx); err != nil {
				return err
			}
			return writeVersion(tx, m.Version)
		})
		if err != nil {
			return fmt.Errorf("migration to schema version %d (%s): %w", m.Version, m.Name, err)
		}
		rep.To = m.Version
		rep.Ran = append(rep.Ran, lifecycle.AppliedMigration{Migration: m.Migration, Detail: detail})
		log.Info("store migrated", "version", m.Version, "migration", m.Name, "detail", detail)
	}
	return nil
}

// BackupPath is the copy of the file at path taken before migrating it
// to version next.
func BackupPath(path string, next int) string { return fmt.Sprintf("%s.pre-v%d.bak", path, next) }

// backup copies the whole file, consistently, to BackupPath: a new file
// written, fsynced and renamed into place, mode 0600.
func backup(db *bbolt.DB, next int) (string, error) {
	dst := BackupPath(db.Path(), next)
	err := db.View(func(tx *bbolt.Tx) error {
		return atomicfile.WriteFrom(dst, 0o600, func(w io.Writer) error {
			_, err := tx.WriteTo(w)
			return err
		})
	})
	return dst, err
}
