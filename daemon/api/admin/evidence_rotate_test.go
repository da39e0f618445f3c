package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// An admin rotates the site key with a reason: the answer and
// evidence-keys publish the new key first and the retired one after, the
// next certificate is signed with the new key by the same running
// issuer, one signed before still verifies (by the retired key) and
// names the missing key without it, and the rotation is audited. No
// reason, or an operator, changes nothing.
func TestRotatingTheSiteKeySignsTheNextCertificateWithTheNewKey(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	site := e.site("maas-rot")
	ev := e.evidence
	before, err := ev.Issue(ctx, site, certFor("n1", 1))
	if err != nil {
		t.Fatal(err)
	}
	old, err := ev.PublicKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/admin/evidence-keys/rotate"
	expect(t, e.do(adminRole, http.MethodPost, path, map[string]string{}), http.StatusUnprocessableEntity, "reason")
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]string{"reason": "key copied to a laptop"}), http.StatusForbidden, "")
	if now, _ := ev.PublicKeys(ctx); len(now) != 1 || !now[0].Equal(old[0]) {
		t.Fatalf("keys after refused rotations: %d; want the one key unchanged", len(now))
	}
	var rotated struct {
		Keys []struct {
			KeyID  string `json:"key_id"`
			Status string
		}
	}
	r := e.do(adminRole, http.MethodPost, path, map[string]string{"reason": "key copied to a laptop"})
	expect(t, r, http.StatusOK, "")
	r.decode(t, &rotated)
	if len(rotated.Keys) != 2 || rotated.Keys[1].KeyID != cert.KeyID(old[0]) || rotated.Keys[1].Status != "retired" {
		t.Fatalf("answer %+v; want a new current key, then the old one retired", rotated.Keys)
	}
	after, err := ev.Issue(ctx, site, certFor("n1", 2))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := ev.PublicKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := cert.Verify(ctx, after.Envelope, keys); err != nil || v.Retired || v.KeyID != rotated.Keys[0].KeyID {
		t.Fatalf("certificate after rotation: %+v, %v; want signed by the new key", v, err)
	}
	if v, err := cert.Verify(ctx, before.Envelope, keys); err != nil || !v.Retired {
		t.Fatalf("certificate before rotation: %+v, %v; want verified by the retired key", v, err)
	}
	_, err = cert.Verify(ctx, before.Envelope, keys[:1])
	if err == nil || !strings.Contains(err.Error(), cert.KeyID(old[0])) {
		t.Fatalf("without the retired key: %v; want the missing key named", err)
	}
	entries, _ := e.store.ListAudit(ctx, lifecycle.AuditFilter{Action: "evidence.rotate_key"})
	if len(entries) != 1 || entries[0].Reason != "key copied to a laptop" || entries[0].PriorState != cert.KeyID(old[0]) ||
		entries[0].TargetID != rotated.Keys[0].KeyID || entries[0].Role != string(lifecycle.RoleAdmin) {
		t.Fatalf("audit = %+v", entries)
	}
}

func certFor(node string, n int) cert.Certificate {
	return cert.Certificate{Node: cert.Node{NodeID: node, MAASSystemID: "abc123"},
		Predicate: cert.Predicate{Mode: "soft_reset", EvidenceDigest: cert.Digest([]byte{byte(n)})}}
}
