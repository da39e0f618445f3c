package admintoken

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const handWritten = Prefix + "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"

func TestRecoveryPaths(t *testing.T) {
	tests := []struct {
		name        string
		setup       func(t *testing.T, e *env) // runs after a first Ensure
		want        Outcome
		sameFile    bool
		revokedPrev bool // the first start's token is revoked afterwards
	}{
		{"file deleted rotates", func(t *testing.T, e *env) { rm(t, e) }, Rotated, false, true},
		{"store lost registers the file", func(t *testing.T, e *env) { e.store.byID = map[string]lifecycle.AdminToken{} }, Registered, true, false},
		{"hand-written file replaces the old token", func(t *testing.T, e *env) { write(t, e, handWritten, 0o600) }, Registered, false, true},
		{"revoked file token rotates", func(t *testing.T, e *env) { revokeAll(t, e) }, Rotated, false, true},
		{"loose mode is tightened and kept", func(t *testing.T, e *env) { chmod(t, e, 0o644) }, Kept, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			first := e.ensure(t)
			before := e.file(t)
			tt.setup(t, e)
			got := e.ensure(t)
			after := e.file(t)
			if got.Outcome != tt.want || (before == after) != tt.sameFile {
				t.Fatalf("Ensure() outcome %s, file kept %v; want %s, %v", got.Outcome, before == after, tt.want, tt.sameFile)
			}
			if active := e.store.active(); len(active) != 1 || active[0] != Hash(after) {
				t.Errorf("active bootstrap hashes = %v, want only the file's %s", active, Hash(after))
			}
			prev := e.store.byID[first.TokenID]
			if prev.ID != "" && (prev.RevokedAt != nil) != tt.revokedPrev {
				t.Errorf("first token revoked = %v, want %v", prev.RevokedAt != nil, tt.revokedPrev)
			}
			if info, err := os.Stat(got.Path); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("token file mode: %v %v, want 0600", info.Mode().Perm(), err)
			}
		})
	}
}

func TestEnsureErrors(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, e *env)
		code   lifecycle.Code
		substr string
	}{
		{"malformed file", func(t *testing.T, e *env) { write(t, e, "hunter2", 0o600) }, lifecycle.CodeInternal, "does not start with"},
		{"short token", func(t *testing.T, e *env) { write(t, e, Prefix+"c2hvcnQ", 0o600) }, lifecycle.CodeInternal, "32 bytes"},
		{"store down on lookup", func(t *testing.T, e *env) { write(t, e, handWritten, 0o600); e.store.failOn = "AdminTokenByHash" }, lifecycle.CodeUnavailable, "look up"},
		{"store down on create", func(t *testing.T, e *env) { e.store.failOn = "CreateAdminToken" }, lifecycle.CodeUnavailable, "register"},
		{"store down on list", func(t *testing.T, e *env) { e.store.failOn = "ListAdminTokens" }, lifecycle.CodeUnavailable, "list tokens"},
		{"no state dir", func(t *testing.T, e *env) { e.opts.Dir = "" }, lifecycle.CodeInvalid, "state directory"},
		{"state dir missing", func(t *testing.T, e *env) { e.opts.Dir = filepath.Join(e.dir, "nope") }, lifecycle.CodeInternal, "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.setup(t, e)
			_, err := Ensure(context.Background(), e.store, e.opts)
			if lifecycle.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.substr) {
				t.Fatalf("Ensure() = %v (code %s), want %s containing %q", err, lifecycle.ErrorCode(err), tt.code, tt.substr)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q leaks the file content", err)
			}
		})
	}
}

func rm(t *testing.T, e *env) {
	t.Helper()
	if err := os.Remove(filepath.Join(e.dir, FileName)); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, e *env, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.dir, FileName), []byte(content+"\n"), mode); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, e *env, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(filepath.Join(e.dir, FileName), mode); err != nil {
		t.Fatal(err)
	}
}

func revokeAll(t *testing.T, e *env) {
	t.Helper()
	for id := range e.store.byID {
		if _, err := e.store.RevokeAdminToken(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
}
