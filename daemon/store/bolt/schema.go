package bolt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
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
