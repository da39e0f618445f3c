package bolt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
	bbolt "go.etcd.io/bbolt"
)

// schemaKey holds the schema version in bMeta, as decimal text. A file
// without it is version 0: every file written before versions existed.
var schemaKey = []byte("schema_version")

// Latest is the newest schema version this binary knows.
func Latest() int { return migrations[len(migrations)-1].Version }

// Status reports the schema version of the file at path and the
// migrations Open would run, without changing the file (a read-only
// open: it still waits LockTimeout for a daemon holding the file).
// not_found when there is no file.
func Status(path string, opts Options) (lifecycle.SchemaStatus, error) {
	if err := mustExist(path); err != nil {
		return lifecycle.SchemaStatus{}, err
	}
	db, err := openDB(path, opts.withDefaults(), true)
	if err != nil {
		return lifecycle.SchemaStatus{}, err
	}
	defer db.Close()
	st := lifecycle.SchemaStatus{Latest: Latest(), Pending: []lifecycle.Migration{}}
	if err := db.View(func(tx *bbolt.Tx) (err error) { st.Version, err = readVersion(tx); return err }); err != nil {
		return st, lifecycle.Wrap(lifecycle.CodeInternal, "store.Status", err)
	}
	if st.Version > st.Latest {
		return st, tooNew(path, st.Version)
	}
	for _, m := range pending(st.Version) {
		st.Pending = append(st.Pending, m.Migration)
	}
	return st, nil
}

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

func mustExist(path string) error {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return lifecycle.Errorf(lifecycle.CodeNotFound, "store.Open", "no store file at %s", path)
	}
	if err != nil {
		return lifecycle.Wrap(lifecycle.CodeInternal, "store.Open", err)
	}
	return nil
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

func tooNew(path string, version int) error {
	return lifecycle.Errorf(lifecycle.CodeConflict, "store.Open",
		"%s is at schema version %d but this binary knows versions up to %d: a newer release wrote it; "+
			"run that release, or restore a %s.pre-v*.bak copy taken before the upgrade", path, version, Latest(), path)
}

func readVersion(tx *bbolt.Tx) (int, error) {
	b := tx.Bucket(bMeta)
	if b == nil {
		return 0, nil
	}
	raw := b.Get(schemaKey)
	if raw == nil {
		return 0, nil
	}
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("schema version %q is not a version number", raw)
	}
	return v, nil
}

func writeVersion(tx *bbolt.Tx, v int) error {
	b, err := tx.CreateBucketIfNotExists(bMeta)
	if err != nil {
		return err
	}
	return b.Put(schemaKey, []byte(strconv.Itoa(v)))
}
