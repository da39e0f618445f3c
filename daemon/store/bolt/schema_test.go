package bolt_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bbolt "go.etcd.io/bbolt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// fixture is a store file of schema version 0 written by the daemon
// before versions existed (see testdata/README.md).
const fixture = "testdata/state-v0.db"

// copyFixture copies the fixture into a new state directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), bolt.FileName)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// contents is every bucket of a file (nested ones by path): its
// sequence under "#seq" and its key/value pairs.
type contents map[string]map[string]string

func dumpFile(t *testing.T, path string) contents {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := contents{}
	var walk func(name string, b *bbolt.Bucket) error
	walk = func(name string, b *bbolt.Bucket) error {
		m := map[string]string{"#seq": strconv.FormatUint(b.Sequence(), 10)}
		out[name] = m
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(name+"/"+string(k), b.Bucket(k))
			}
			m[string(k)] = string(v)
			return nil
		})
	}
	err = db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error { return walk(string(name), b) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// deliveredIndex is what the delivered-events index must hold for the
// outbox records in c: delivery time and sequence, oldest first.
func deliveredIndex(t *testing.T, c contents) map[string]string {
	t.Helper()
	want := map[string]string{"#seq": "0"}
	for k, raw := range c["outbox"] {
		var e lifecycle.OutboxEvent
		if k == "#seq" {
			continue
		}
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			t.Fatal(err)
		}
		if e.DeliveredAt == nil {
			continue
		}
		k := binary.BigEndian.AppendUint64(nil, uint64(e.DeliveredAt.UnixNano()))
		want[string(binary.BigEndian.AppendUint64(k, e.Seq))] = ""
	}
	return want
}

// Opening the old file migrates it to version 1: every record is kept
// byte for byte, the delivered events are indexed, a backup of the old
// file is kept, and each step is logged.
func TestOpenMigratesTheOldFile(t *testing.T) {
	path := copyFixture(t)
	before := dumpFile(t, path)
	for bucket, n := range map[string]int{"sites": 1, "nodes": 8, "runs": 11, "outbox": 12, "outbox_pending": 4} {
		if got := len(before[bucket]) - 1; got != n {
			t.Fatalf("fixture bucket %s holds %d records, want %d", bucket, got, n)
		}
	}
	if _, ok := before["meta"]; ok {
		t.Fatal("fixture already has a meta bucket")
	}
	var logs bytes.Buffer
	s, err := bolt.Open(path, bolt.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	s.Close()

	after := dumpFile(t, path)
	index := deliveredIndex(t, before)
	if len(index)-1 != 8 {
		t.Fatalf("fixture holds %d delivered events, want 8", len(index)-1)
	}
	want := contents{"meta": {"#seq": "0", "schema_version": "3"}, "outbox_delivered": index}
	for k, v := range before {
		want[k] = v
	}
	// the list indexes: four entries a node, eight or nine a run (what
	// they hold is checked by TestMigratedListsPage)
	if n, r := len(after["node_index"])-1, len(after["run_index"])-1; n != 4*8 || r < 8*11 || r > 9*11 {
		t.Fatalf("list indexes hold %d node and %d run entries, want 32 and 88-99", n, r)
	}
	want["node_index"], want["run_index"] = after["node_index"], after["run_index"]
	if d := cmp.Diff(want, after); d != "" {
		t.Fatalf("after migration (-want +got):\n%s", d)
	}
	backup := bolt.BackupPath(path, 1)
	if d := cmp.Diff(before, dumpFile(t, backup)); d != "" {
		t.Fatalf("backup differs from the old file (-want +got):\n%s", d)
	}
	if fi, err := os.Stat(backup); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup: %v, %v; want mode 0600", fi, err)
	}
	for _, line := range []string{"store backed up before migrating", "backup=" + backup, "store migrated", "version=1",
		`detail="8 delivered events indexed"`, "version=2", `detail="8 nodes and 11 runs indexed"`,
		"version=3", `detail="11 runs indexed by kind"`} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("log lacks %q:\n%s", line, logs.String())
		}
	}
}

// After the migration, pruning removes the delivered events of runs that
// ended and keeps those of runs waiting for an operator.
func TestPruneAfterMigration(t *testing.T) {
	path := copyFixture(t)
	before := dumpFile(t, path)
	ended := 0
	for k, raw := range before["outbox"] {
		if k == "#seq" {
			continue
		}
		var e lifecycle.OutboxEvent
		var r lifecycle.Run
		must(t, json.Unmarshal([]byte(raw), &e))
		must(t, json.Unmarshal([]byte(before["runs"][e.RunID]), &r))
		if e.DeliveredAt != nil && r.Status.Terminal() {
			ended++
		}
	}
	if ended == 0 || ended == 8 {
		t.Fatalf("fixture: %d delivered events of ended runs, want some but not all 8", ended)
	}
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	n, err := s.PruneDelivered(t.Context(), farFuture, 100)
	must(t, err)
	s.Close()
	after := dumpFile(t, path)
	if n != ended || len(after["outbox"])-1 != 12-ended || len(after["outbox_delivered"])-1 != 8-ended {
		t.Fatalf("pruned %d (want %d): %d events and %d index entries left", n, ended,
			len(after["outbox"])-1, len(after["outbox_delivered"])-1)
	}
}

// Migrate reports what ran; a second run finds nothing to do; Status
// tells the pending migrations without changing the file.
func TestMigrateAndStatus(t *testing.T) {
	path := copyFixture(t)
	st, err := bolt.Status(path, bolt.Options{})
	must(t, err)
	m1 := lifecycle.Migration{Version: 1, Name: "index delivered outbox events by delivery time, so they can be pruned"}
	m2 := lifecycle.Migration{Version: 2, Name: "index nodes by site, status and hostname, and runs by request time, site, node, batch and status, for list pages"}
	m3 := lifecycle.Migration{Version: 3, Name: "index runs by kind, alone and with site or status, for decommission and onboarding list pages"}
	if d := cmp.Diff(lifecycle.SchemaStatus{Version: 0, Latest: 3, Pending: []lifecycle.Migration{m1, m2, m3}}, st); d != "" {
		t.Fatalf("status (-want +got):\n%s", d)
	}
	if _, err := os.Stat(bolt.BackupPath(path, 1)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Status made a backup: %v", err)
	}
	rep, err := bolt.Migrate(path, bolt.Options{Logger: discard()})
	must(t, err)
	want := lifecycle.MigrationReport{From: 0, To: 3, Backup: bolt.BackupPath(path, 1),
		Ran: []lifecycle.AppliedMigration{{Migration: m1, Detail: "8 delivered events indexed"},
			{Migration: m2, Detail: "8 nodes and 11 runs indexed"}, {Migration: m3, Detail: "11 runs indexed by kind"}}}
	if d := cmp.Diff(want, rep); d != "" {
		t.Fatalf("report (-want +got):\n%s", d)
	}
	rep, err = bolt.Migrate(path, bolt.Options{Logger: discard()})
	must(t, err)
	if d := cmp.Diff(lifecycle.MigrationReport{From: 3, To: 3, Ran: []lifecycle.AppliedMigration{}}, rep); d != "" {
		t.Fatalf("second migrate (-want +got):\n%s", d)
	}
	st, err = bolt.Status(path, bolt.Options{})
	must(t, err)
	if d := cmp.Diff(lifecycle.SchemaStatus{Version: 3, Latest: 3, Pending: []lifecycle.Migration{}}, st); d != "" {
		t.Fatalf("status after (-want +got):\n%s", d)
	}
}

// A new file starts at the newest version: no migration, no backup.
func TestNewFileStartsAtLatest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, bolt.FileName)
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	s.Close()
	st, err := bolt.Status(path, bolt.Options{})
	must(t, err)
	if st.Version != bolt.Latest() || len(st.Pending) != 0 {
		t.Fatalf("new file status %+v, want version %d and nothing pending", st, bolt.Latest())
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Fatalf("state dir holds %v, want only the store file", names)
	}
}

// A file of a newer schema is refused, by Open, Migrate and Status, and
// left as it was.
func TestNewerFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	s.Close()
	setVersion(t, path, bolt.Latest()+1)
	raw, _ := os.ReadFile(path)
	for name, try := range map[string]func() error{
		"open":    func() error { _, err := bolt.Open(path, bolt.Options{}); return err },
		"migrate": func() error { _, err := bolt.Migrate(path, bolt.Options{}); return err },
		"status":  func() error { _, err := bolt.Status(path, bolt.Options{}); return err },
	} {
		t.Run(name, func(t *testing.T) {
			err := try()
			msg := fmt.Sprintf("is at schema version %d but this binary knows versions up to %d", bolt.Latest()+1, bolt.Latest())
			if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || !strings.Contains(fmtErr(err), msg) {
				t.Fatalf("got %v, want a conflict saying %q", err, msg)
			}
		})
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(raw, now) {
		t.Fatal("the refused file was changed")
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A crash between migrations resumes: the migrations that committed stay
// done and do not run again, the next start backs the file up again under
// its own name and runs the rest.
func TestInterruptedMigrationResumes(t *testing.T) {
	path := copyFixture(t)
	before := dumpFile(t, path)
	runs2, fail3 := 0, true
	bolt.AppendTestMigrations(t,
		func(tx *bbolt.Tx) (string, error) {
			runs2++
			return "", tx.Bucket([]byte("meta")).Put([]byte("m2"), []byte("x"))
		},
		func(tx *bbolt.Tx) (string, error) {
			if err := tx.Bucket([]byte("meta")).Put([]byte("m3"), []byte("x")); err != nil || fail3 {
				return "", errors.New("power cut")
			}
			return "", nil
		})
	rep, err := bolt.Migrate(path, bolt.Options{Logger: discard()})
	if err == nil || !strings.Contains(err.Error(), "migration to schema version 5 (test migration 5): power cut") {
		t.Fatalf("migrate with a failing migration 5: %v", err)
	}
	if rep.To != 4 || len(rep.Ran) != 4 {
		t.Fatalf("report %+v, want migrations 1 to 4 done", rep)
	}
	mid := dumpFile(t, path)
	if d := cmp.Diff(map[string]string{"#seq": "0", "schema_version": "4", "m2": "x"}, mid["meta"]); d != "" {
		t.Fatalf("meta after the interruption (-want +got):\n%s", d)
	}

	fail3 = false
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	s.Close()
	st, err := bolt.Status(path, bolt.Options{})
	must(t, err)
	if st.Version != 5 || runs2 != 1 {
		t.Fatalf("resumed: version %d, test migration 4 ran %d times; want 5 and once", st.Version, runs2)
	}
	if d := cmp.Diff(before, dumpFile(t, bolt.BackupPath(path, 1))); d != "" {
		t.Fatalf("the first backup was overwritten (-want +got):\n%s", d)
	}
	if d := cmp.Diff(mid, dumpFile(t, bolt.BackupPath(path, 5))); d != "" {
		t.Fatalf("the resumed run's backup is not the file it found (-want +got):\n%s", d)
	}
}

// Migrate and Status say when there is no file, and fail fast when the
// daemon holds it.
func TestMigrateMissingOrLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	if _, err := bolt.Migrate(path, bolt.Options{}); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("migrate without a file: %v, want not_found", err)
	}
	if _, err := bolt.Status(path, bolt.Options{}); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("status without a file: %v, want not_found", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was created: %v", err)
	}
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	defer s.Close()
	if _, err := bolt.Migrate(path, bolt.Options{LockTimeout: 50 * time.Millisecond}); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("migrate while open: %v, want unavailable", err)
	}
	if _, err := bolt.Status(path, bolt.Options{LockTimeout: 50 * time.Millisecond}); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("status while open: %v, want unavailable", err)
	}
}

func setVersion(t *testing.T, path string, v int) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	must(t, err)
	defer db.Close()
	must(t, db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), []byte(strconv.Itoa(v)))
	}))
}

var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The migrated fixture's nodes and runs are found through the indexes the
// migration built: every filtered list and its pages hold all of them.
func TestMigratedListsPage(t *testing.T) {
	s, err := bolt.Open(copyFixture(t), bolt.Options{Logger: discard()})
	must(t, err)
	defer s.Close()
	ctx := t.Context()
	nodes, err := s.ListNodes(ctx, lifecycle.NodeFilter{SiteID: "dev-site", Limit: 3})
	must(t, err)
	byHost, err := s.ListNodes(ctx, lifecycle.NodeFilter{Hostname: "GPU05"})
	must(t, err)
	runs, err := s.ListRuns(ctx, lifecycle.RunFilter{SiteID: "dev-site"})
	must(t, err)
	page, err := s.ListRuns(ctx, lifecycle.RunFilter{SiteID: "dev-site", Limit: 4, After: runs[6].ID})
	must(t, err)
	if len(nodes) != 3 || len(byHost) != 1 || len(runs) != 11 || len(page) != 4 || page[0].ID != runs[7].ID {
		t.Fatalf("after migration: %d nodes in a page of 3, %d by hostname, %d runs, page after the 7th starts %v",
			len(nodes), len(byHost), len(runs), page)
	}
	kind, want := runs[0].Kind, 0
	for _, r := range runs {
		if r.Kind == kind {
			want++
		}
	}
	byKind, err := s.ListRuns(ctx, lifecycle.RunFilter{Kind: kind, Limit: 100})
	must(t, err)
	bySiteKind, err := s.ListRuns(ctx, lifecycle.RunFilter{Kind: kind, SiteID: "dev-site", Limit: 100})
	must(t, err)
	if want == 0 || len(byKind) != want || len(bySiteKind) != want {
		t.Fatalf("after migration: %d and %d runs of kind %q through the kind index, want %d", len(byKind), len(bySiteKind), kind, want)
	}
}

// A file migrated to version 2 before runs were indexed by kind gets the
// kind entries from migration 3: a kind's list, alone and with a site,
// finds its runs through them.
func TestMigrationIndexesRunKinds(t *testing.T) {
	path := copyFixture(t)
	_, err := bolt.Migrate(path, bolt.Options{Logger: discard()})
	must(t, err)
	db, err := bbolt.Open(path, 0o600, nil)
	must(t, err)
	dropped := 0
	must(t, db.Update(func(tx *bbolt.Tx) error {
		c := tx.Bucket([]byte("run_index")).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if p := string(k[:bytes.IndexByte(k, 0)]); p == "k" || p == "ks" || p == "kt" {
				if err := c.Delete(); err != nil {
					return err
				}
				dropped++
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), []byte("2"))
	}))
	must(t, db.Close())
	if dropped != 3*11 {
		t.Fatalf("dropped %d kind entries, want 33", dropped)
	}
	rep, err := bolt.Migrate(path, bolt.Options{Logger: discard()})
	must(t, err)
	if len(rep.Ran) != 1 || rep.Ran[0].Version != 3 || rep.Ran[0].Detail != "11 runs indexed by kind" {
		t.Fatalf("report %+v, want migration 3 alone", rep)
	}
	s, err := bolt.Open(path, bolt.Options{Logger: discard()})
	must(t, err)
	defer s.Close()
	all, err := s.ListRuns(t.Context(), lifecycle.RunFilter{})
	must(t, err)
	byKind, err := s.ListRuns(t.Context(), lifecycle.RunFilter{Kind: all[0].Kind, SiteID: all[0].SiteID, Limit: 100})
	must(t, err)
	if len(all) != 11 || len(byKind) == 0 {
		t.Fatalf("%d runs, %d of kind %q on their site after migration 3", len(all), len(byKind), all[0].Kind)
	}
}
