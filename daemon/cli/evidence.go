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
