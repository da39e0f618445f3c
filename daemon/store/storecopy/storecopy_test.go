package storecopy_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func openBolt(t *testing.T, path string) *bolt.Store {
	t.Helper()
	clock := storetest.NewClock()
	s, err := bolt.Open(path, bolt.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newBolt(t *testing.T) *bolt.Store { return openBolt(t, filepath.Join(t.TempDir(), bolt.FileName)) }

// populated is a bbolt store with every record kind.
func populated(t *testing.T) *bolt.Store {
	t.Helper()
	clock := storetest.NewClock()
	s, err := bolt.Open(filepath.Join(t.TempDir(), bolt.FileName), bolt.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := storetest.Populate(context.Background(), s, clock); err != nil {
		t.Fatal(err)
	}
	return s
}

// v0 is the schema-0 fixture, migrated by Open.
func v0(t *testing.T) *bolt.Store {
	t.Helper()
	raw, err := os.ReadFile("../bolt/testdata/state-v0.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), bolt.FileName)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return openBolt(t, path)
}

func TestCopyBoltToBolt(t *testing.T) {
	ctx := context.Background()
	for name, src := range map[string]func(*testing.T) *bolt.Store{"populated": populated, "v0 fixture": v0} {
		t.Run(name, func(t *testing.T) {
			s := src(t)
			want, err := storecopy.Snapshot(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			dst := newBolt(t)
			counts, err := storecopy.Copy(ctx, s, dst)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(storecopy.CountKinds(want), counts); d != "" || counts[lifecycle.KindNode] == 0 {
				t.Fatalf("counts (-want +got):\n%s\n%v", d, counts)
			}
			if err := dst.Check(); err != nil {
				t.Fatal(err)
			}
			_, err = storecopy.Copy(ctx, s, dst)
			if lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
				t.Fatalf("a second copy into the same store: %v, want conflict", err)
			}
		})
	}
}

// tampering imports what it is given with one record changed, as a
// lossy backend would.
type tampering struct {
	storecopy.Target
	kind lifecycle.RecordKind
}

func (t tampering) Import(ctx context.Context, recs []lifecycle.Record) error {
	out := append([]lifecycle.Record(nil), recs...)
	for i, r := range out {
		if r.Kind == t.kind {
			out[i].Data = bytes.Replace(r.Data, []byte(`"gpu-01"`), []byte(`"gpu-99"`), 1)
			break
		}
	}
	return t.Target.Import(ctx, out)
}

func TestVerifyCatchesTamperedRecord(t *testing.T) {
	_, err := storecopy.Copy(context.Background(), populated(t), tampering{newBolt(t), lifecycle.KindNode})
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || !strings.Contains(err.Error(), "node node-1: differs") {
		t.Fatalf("err = %v, want a conflict naming node node-1", err)
	}
}

func TestVerify(t *testing.T) {
	a := lifecycle.Record{Kind: lifecycle.KindSite, Key: "s1", Data: []byte(`{"id":"s1"}`)}
	b := lifecycle.Record{Kind: lifecycle.KindNode, Key: "n1", Data: []byte(`{"id":"n1"}`)}
	changed := b
	changed.Data = []byte(`{"id":"n1","x":1}`)
	for _, tc := range []struct {
		name      string
		want, got []lifecycle.Record
		msg       string
	}{
		{"same in another order", []lifecycle.Record{a, b}, []lifecycle.Record{b, a}, ""},
		{"missing", []lifecycle.Record{a, b}, []lifecycle.Record{a}, "node n1: missing from the copy"},
		{"extra", []lifecycle.Record{a}, []lifecycle.Record{a, b}, "node n1: only in the copy"},
		{"changed", []lifecycle.Record{a, b}, []lifecycle.Record{a, changed}, "node n1: differs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := storecopy.Verify(tc.want, tc.got)
			if (tc.msg == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.msg)) {
				t.Fatalf("Verify = %v, want %q", err, tc.msg)
			}
		})
	}
}

func TestStreamRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := populated(t)
	var buf bytes.Buffer
	counts, err := storecopy.WriteStream(ctx, src, &buf)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := storecopy.ReadStream(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := storecopy.Snapshot(ctx, src)
	if d := cmp.Diff(want, recs); d != "" {
		t.Fatalf("stream round trip (-want +got):\n%s", d)
	}
	if got, err := storecopy.Restore(ctx, recs, newBolt(t)); err != nil || !cmp.Equal(got, counts) {
		t.Fatalf("restore = %v, %v; want %v", got, err, counts)
	}
	for name, bad := range map[string][]byte{"truncated": buf.Bytes()[:buf.Len()-30], "not gzip": []byte("hello")} {
		if _, err := storecopy.ReadStream(bytes.NewReader(bad)); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
			t.Errorf("%s: err = %v, want invalid", name, err)
		}
	}
}
