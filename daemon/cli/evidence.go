package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

func init() {
	commands["evidence export"] = evidenceExport
	commands["evidence keys"] = evidenceKeys
	commands["evidence rotate-key"] = evidenceRotateKey
}

// evidenceExport writes a node's chain of clean certificates, with its
// site's log and signed head, as the bundle `evidence verify` checks
// offline: maas-sidecar evidence export NODE [--out FILE].
func evidenceExport(ctx context.Context, s *session, args []string) error {
	out := s.flags().String("out", "", "write the bundle to `file` (default: standard output)")
	pos, err := s.parse(args, 1, "NODE")
	if err != nil {
		return err
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/nodes/"+url.PathEscape(pos[0])+"/certificates", nil, nil, nil)
	if err != nil {
		return err
	}
	return s.writeOut(*out, raw)
}

// evidenceKeys writes the site's public keys (current, then retired) as
// the PEM file `evidence verify --key` reads: maas-sidecar evidence keys
// SITE [--out FILE].
func evidenceKeys(ctx context.Context, s *session, args []string) error {
	out := s.flags().String("out", "", "write the PEM keys to `file` (default: standard output)")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	var v struct {
		PEM string `json:"pem"`
	}
	raw, err := s.call(ctx, http.MethodGet, admin+"/maas-sites/"+url.PathEscape(pos[0])+"/evidence-keys", nil, &v, nil)
	if err != nil {
		return err
	}
	if s.output == "json" {
		return s.writeOut(*out, raw)
	}
	return s.writeOut(*out, []byte(v.PEM))
}

// evidenceRotateKey retires the site key and makes a new one, which
// signs from the next certificate on: maas-sidecar evidence rotate-key
// --reason WHY (admin; audited). It prints the keys as evidence keys
// publishes them, the new one first.
func evidenceRotateKey(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
	if _, err := s.parse(args, 0); err != nil {
		return err
	}
	if s.reason == "" {
		return usagef("--reason is required")
	}
	var v struct {
		Keys []struct {
			KeyID  string `json:"key_id"`
			Status string `json:"status"`
		} `json:"keys"`
	}
	raw, err := s.call(ctx, http.MethodPost, admin+"/evidence-keys/rotate", map[string]string{"reason": s.reason}, &v, nil)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, k := range v.Keys {
		rows = append(rows, []string{k.KeyID, k.Status})
	}
	return s.show(raw, "KEY_ID STATUS", rows)
}

// writeOut writes b to file, or to standard output when file is "".
func (s *session) writeOut(file string, b []byte) error {
	if file == "" {
		_, err := s.env.Stdout.Write(b)
		return err
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}
