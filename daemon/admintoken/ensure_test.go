package admintoken

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var epoch = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// counter is a deterministic, never-repeating randomness source.
type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

type env struct {
	dir   string
	store *memTokens
	opts  Options
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	now := func() time.Time { return epoch }
	return &env{dir: dir, store: newMemTokens(now), opts: Options{Dir: dir, Rand: &counter{}, Clock: clockwork.NewFakeClockAt(epoch)}}
}

func (e *env) ensure(t *testing.T) Result {
	t.Helper()
	r, err := Ensure(context.Background(), e.store, e.opts)
	if err != nil {
		t.Fatalf("Ensure() = %v", err)
	}
	return r
}

func (e *env) file(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestFirstStartCreatesFileAndToken(t *testing.T) {
	e := newEnv(t)
	r := e.ensure(t)
	if r.Outcome != Created || r.Path != filepath.Join(e.dir, FileName) {
		t.Fatalf("Ensure() = %+v, want created at %s", r, filepath.Join(e.dir, FileName))
	}
	info, err := os.Stat(r.Path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, mode %v; want 0600", err, info.Mode().Perm())
	}
	tok := e.file(t)
	if _, err := parse(tok); err != nil || len(tok) != len(Prefix)+43 {
		t.Fatalf("token %q: %v, want %s + 43 base64 characters", tok, err, Prefix)
	}
	want := lifecycle.AdminToken{ID: r.TokenID, Name: Name, Role: lifecycle.RoleAdmin, Hash: Hash(tok), CreatedAt: epoch}
	got, err := e.store.AdminTokenByHash(context.Background(), Hash(tok))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stored token (-want +got):\n%s", d)
	}
}

func TestLaterStartsKeepTheToken(t *testing.T) {
	e := newEnv(t)
	first := e.ensure(t)
	tok := e.file(t)
	second := e.ensure(t)
	if second.Outcome != Kept || second.TokenID != first.TokenID || e.file(t) != tok {
		t.Fatalf("second Ensure() = %+v, file changed: %v; want kept", second, e.file(t) != tok)
	}
	if got := e.store.active(); !cmp.Equal(got, []string{Hash(tok)}) {
		t.Errorf("active bootstrap hashes = %v, want just the file's", got)
	}
}

func TestHashIsHexSHA256(t *testing.T) {
	// sha256("abc"), a published test vector.
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := Hash("abc"); got != want {
		t.Errorf("Hash(abc) = %s, want %s", got, want)
	}
}

func TestRandomnessFailure(t *testing.T) {
	e := newEnv(t)
	e.opts.Rand = bytes.NewReader(make([]byte, 5))
	_, err := Ensure(context.Background(), e.store, e.opts)
	if err == nil || !strings.Contains(err.Error(), "random") {
		t.Fatalf("Ensure() = %v, want a randomness error", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("token file after failure: %v, want none", err)
	}
}
