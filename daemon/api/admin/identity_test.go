package admin_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
)

// enrolledNode creates an enrolling node holding an agent certificate.
func enrolledNode(t *testing.T, e *env, id string) {
	t.Helper()
	site := e.site("s-" + id)
	n := lifecycle.Node{ID: id, SiteID: site, Hostname: "h-" + id, Status: lifecycle.NodeEnrolling}
	n.SetAgentCert("abc123", []byte{1, 2}, false, time.Time{})
	e.must(e.store.CreateNode(t.Context(), n))
}

func TestRevokeCertificate(t *testing.T) {
	e := newEnv(t)
	enrolledNode(t, e, "n1")
	path := "/api/v1/admin/nodes/n1/revoke-certificate"
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{}), http.StatusUnprocessableEntity, "reason")
	expect(t, e.do(viewerRole, http.MethodPost, path, map[string]any{"reason": "x"}), http.StatusForbidden, "")
	if n, _ := e.store.GetNode(t.Context(), "n1"); n.AgentCertSerial != "abc123" {
		t.Fatalf("a refused revoke changed the node: serial %q", n.AgentCertSerial)
	}
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{"reason": "host stolen"}), http.StatusOK, "")
	n, _ := e.store.GetNode(t.Context(), "n1")
	if v := n.CheckAgentCert("abc123", time.Now()); v != lifecycle.CertRevoked {
		t.Fatalf("after revoke the old serial is %s, want revoked", v)
	}
	var audit struct{ Entries []lifecycle.AuditEntry }
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=node.revoke_certificate", nil).decode(t, &audit)
	if len(audit.Entries) != 1 || audit.Entries[0].Reason != "host stolen" || audit.Entries[0].ExpectedTarget != "revoked" {
		t.Fatalf("audit %+v", audit.Entries)
	}
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/ghost/revoke-certificate", map[string]any{"reason": "x"}), http.StatusNotFound, "")
}

func TestIssueEnrollmentToken(t *testing.T) {
	e := newEnv(t)
	enrolledNode(t, e, "n1")
	path := "/api/v1/admin/nodes/n1/enrollment-token"
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{"reason": "x"}), http.StatusForbidden, "")
	r := e.do(adminRole, http.MethodPost, path, map[string]any{"reason": "re-enroll after revoke"})
	expect(t, r, http.StatusCreated, "")
	var got struct {
		NodeID    string    `json:"node_id"`
		Token     string    `json:"token"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	r.decode(t, &got)
	if got.NodeID != "n1" || len(got.Token) < 32 || !got.ExpiresAt.After(time.Now()) {
		t.Fatalf("token answer %+v", got)
	}
	tok, err := e.store.ConsumeEnrollmentToken(t.Context(), pki.HashToken(got.Token), "n1", "key-1")
	if err != nil || tok.NodeID != "n1" {
		t.Fatalf("the issued token does not enroll n1: %v", err)
	}
	var audit struct{ Entries []lifecycle.AuditEntry }
	ar := e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=node.enrollment_token", nil)
	ar.decode(t, &audit)
	if len(audit.Entries) != 1 || strings.Contains(string(ar.Body), got.Token) {
		t.Fatalf("audit %s: want one entry without the token", ar.Body)
	}
	if strings.Contains(e.logs.String(), got.Token) {
		t.Error("the token reached the log")
	}
}

func TestEnrollmentTokenRefusedForRetiredNode(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: "n2", SiteID: site, Hostname: "h", Status: lifecycle.NodeEnrolling}))
	for _, mv := range []struct {
		from, to lifecycle.NodeState
		actor    lifecycle.Actor
	}{{lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding},
		{lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle},
		{lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle}} {
		_, err := e.store.TransitionNode(t.Context(), lifecycle.NodeTransition{NodeID: "n2", From: mv.from, To: mv.to,
			Context: lifecycle.TransitionContext{Actor: mv.actor, TaskID: "task-1"}})
		e.must(err)
	}
	r := e.do(adminRole, http.MethodPost, "/api/v1/admin/nodes/n2/enrollment-token", map[string]any{"reason": "x"})
	expect(t, r, http.StatusConflict, "")
	if !strings.Contains(string(r.Body), "retired") {
		t.Errorf("conflict %s does not name the state", r.Body)
	}
}
