package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

func init() {
	commands["node revoke-certificate"] = nodeRevokeCertificate
	commands["node enrollment-token"] = nodeEnrollmentToken
}

// nodeRevokeCertificate makes the daemon refuse every certificate the
// node's agent holds (a stolen or copied host identity); the agent must
// enroll again with a token from `node enrollment-token`. --reason is
// required and audited.
func nodeRevokeCertificate(ctx context.Context, s *session, args []string) error {
	out, raw, err := nodeAction(ctx, s, args, "revoke-certificate")
	if err != nil {
		return err
	}
	if err := s.show(raw, "NODE HOSTNAME STATE", [][]string{{out.ID, out.Hostname, out.Status}}); err != nil {
		return err
	}
	if s.output == "table" {
		s.printf("\nagent certificate revoked; issue a token with `node enrollment-token %s` to enroll the agent again\n", out.ID)
	}
	return nil
}

// enrollmentToken is the answer of POST /nodes/{id}/enrollment-token.
type enrollmentToken struct {
	NodeID    string `json:"node_id"`
	Token     string `json:"token"`
	ExpiresAt string `json:"expires_at"`
}

// nodeEnrollmentToken issues a new one-time enrollment token for the
// node's agent. The token is shown once; with --output it is written to
// FILE (mode 0600, replaced atomically) and never printed.
func nodeEnrollmentToken(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	fs.StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	output := fs.String("output", "", "write the token to `file` (mode 0600) instead of printing it")
	ref := s.nodeRef()
	id, err := s.auditedNode(ctx, args, ref)
	if err != nil {
		return err
	}
	var t enrollmentToken
	raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+id+"/enrollment-token", map[string]string{"reason": s.reason}, &t, nil)
	if err != nil {
		return err
	}
	if *output == "" {
		if err := s.show(raw, "NODE EXPIRES", [][]string{{t.NodeID, t.ExpiresAt}}); err != nil {
			return err
		}
		if s.output == "table" {
			s.printf("\ntoken (shown once; place it at the agent's enrollment_token_path): %s\n", t.Token)
		}
		return nil
	}
	if err := atomicfile.Write(*output, []byte(t.Token+"\n"), 0o600); err != nil {
		return outcomeError{fmt.Sprintf("the token was issued but could not be written to %s (issue another): %v", *output, err)}
	}
	shown, _ := json.Marshal(map[string]string{"node_id": t.NodeID, "expires_at": t.ExpiresAt, "token_file": *output})
	return s.show(shown, "NODE EXPIRES TOKEN_FILE", [][]string{{t.NodeID, t.ExpiresAt, *output}})
}
