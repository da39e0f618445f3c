package pki_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// copyFiles copies names from dir src into a new directory.
func copyFiles(t *testing.T, src string, names ...string) string {
	t.Helper()
	dst := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// allFiles are the files every member of a cluster shares.
var allFiles = []string{pki.CAKeyFile, pki.CACertFile, pki.StoreCAKeyFile, pki.StoreCACertFile, pki.SigningKeyFile}

// servePeer serves TLS with p's member TLS as a store member does and
// returns its address.
func servePeer(t *testing.T, p *pki.PKI, legacy bool) string {
	t.Helper()
	m, err := p.NewMemberTLS("127.0.0.1", legacy)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", m.Listen)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// A member checks before joining that a peer shares its store CA and its
// task-signing key: copies of pki/ pass, another store CA or another
// signing key is a mismatch that says which.
func TestCheckPeer(t *testing.T) {
	clock := storetest.NewClock()
	first := t.TempDir()
	addr := servePeer(t, openPKI(t, first, clock), false)
	free, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := free.Addr().String()
	free.Close()
	tests := []struct {
		name     string
		dir      string
		addr     string
		mismatch bool
		message  string
	}{
		{"copied CAs and signing key", copyFiles(t, first, allFiles...), addr, false, ""},
		{"another CA", t.TempDir(), addr, true, "does not accept"},
		{"the agent CA but another store CA", copyFiles(t, first, pki.CAKeyFile, pki.CACertFile, pki.SigningKeyFile), addr, true, "does not accept"},
		{"another signing key", copyFiles(t, first, pki.CAKeyFile, pki.CACertFile, pki.StoreCAKeyFile, pki.StoreCACertFile), addr, true, "signs agent tasks with another key"},
		{"no member there", copyFiles(t, first, allFiles...), closed, false, "no certificate read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := openPKI(t, tt.dir, clock)
			m, err := p.NewMemberTLS("127.0.0.1", false)
			if err != nil {
				t.Fatal(err)
			}
			err = p.CheckPeer(context.Background(), tt.addr, m)
			if errors.Is(err, pki.ErrPeerMismatch) != tt.mismatch || (tt.message == "") != (err == nil) {
				t.Fatalf("CheckPeer() = %v, want mismatch %v", err, tt.mismatch)
			}
			if err != nil && !strings.Contains(err.Error(), tt.message) {
				t.Errorf("CheckPeer() = %q, want it to contain %q", err, tt.message)
			}
		})
	}
}

func TestFingerprintsFollowTheFiles(t *testing.T) {
	clock := storetest.NewClock()
	first := t.TempDir()
	a := openPKI(t, first, clock)
	b := openPKI(t, copyFiles(t, first, allFiles...), clock)
	c := openPKI(t, t.TempDir(), clock)
	if a.Fingerprints() != b.Fingerprints() {
		t.Errorf("copied files: fingerprints %+v and %+v differ", a.Fingerprints(), b.Fingerprints())
	}
	fa, fc := a.Fingerprints(), c.Fingerprints()
	if fa.CA == fc.CA || fa.StoreCA == fc.StoreCA || fa.Signing == fc.Signing || len(fa.CA) != 64 || fa.StoreCA == fa.CA {
		t.Errorf("fresh PKI: %+v against %+v, want other 64-hex fingerprints", fc, fa)
	}
}
