package pki_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// A member that signs clean certificates with another evidence site key
// is refused at join, naming the key; the same key (a copy of
// evidence-site.key) passes, and so does a member of an earlier release
// that carries no site fingerprint, and one that started before a
// rotation (it carries a key this daemon has retired).
func TestCheckPeerSiteKey(t *testing.T) {
	clock := storetest.NewClock()
	first := t.TempDir()
	siteA, _, _ := ed25519.GenerateKey(rand.Reader)
	siteB, _, _ := ed25519.GenerateKey(rand.Reader)
	open := func(dir string, site ed25519.PublicKey, retired ...ed25519.PublicKey) *pki.PKI {
		p, err := pki.Open(pki.Options{Dir: dir, Clock: clock, SiteKey: site, RetiredSiteKeys: retired})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	addr := servePeer(t, open(first, siteA), false)
	earlier := servePeer(t, open(first, nil), false)
	tests := []struct {
		name    string
		site    ed25519.PublicKey
		retired []ed25519.PublicKey
		addr    string
		message string
	}{
		{"the same site key", siteA, nil, addr, ""},
		{"another site key", siteB, nil, addr, "another evidence site key (evidence-site.key"},
		{"a peer of an earlier release", siteB, nil, earlier, ""},
		{"a peer that started before a rotation", siteB, []ed25519.PublicKey{siteA}, addr, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := open(copyFiles(t, first, allFiles...), tt.site, tt.retired...)
			m, err := p.NewMemberTLS("127.0.0.1", false)
			if err != nil {
				t.Fatal(err)
			}
			err = p.CheckPeer(context.Background(), tt.addr, m)
			if (tt.message == "") != (err == nil) || (err != nil && !errors.Is(err, pki.ErrPeerMismatch)) {
				t.Fatalf("CheckPeer() = %v, want a mismatch: %v", err, tt.message != "")
			}
			if err != nil && (!strings.Contains(err.Error(), tt.message) || !strings.Contains(err.Error(), p.Fingerprints().Site)) {
				t.Errorf("CheckPeer() = %q, want it to contain %q and this daemon's site fingerprint", err, tt.message)
			}
		})
	}
}
