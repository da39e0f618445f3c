package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
)

// show prints an answer: its JSON with -o json, else the table rows.
func (s *session) show(raw []byte, header string, rows [][]string) error {
	if s.output == "json" {
		var buf bytes.Buffer
		if len(raw) == 0 {
			raw = []byte("{}")
		}
		if err := json.Indent(&buf, raw, "", "  "); err != nil {
			return err
		}
		buf.WriteByte('\n')
		_, err := s.env.Stdout.Write(buf.Bytes())
		return err
	}
	tw := tabwriter.NewWriter(s.env.Stdout, 0, 4, 2, ' ', 0)
	if header != "" {
		fmt.Fprintln(tw, strings.ReplaceAll(header, " ", "\t"))
	}
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// call is the common shape of a command: resolve the client, send, show.
func (s *session) call(ctx context.Context, method, path string, body, out any, hdr map[string]string) ([]byte, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	if s.reason != "" {
		if hdr == nil {
			hdr = map[string]string{}
		}
		hdr["X-Audit-Reason"] = s.reason
	}
	return c.Call(ctx, method, path, body, out, hdr)
}

// kv prints one record as "key  value" rows.
func (s *session) kv(raw []byte, pairs ...string) error {
	rows := make([][]string, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		rows = append(rows, []string{pairs[i], dash(pairs[i+1])})
	}
	return s.show(raw, "", rows)
}

func dash(v string) string {
	if v == "" {
		return "-"
	}
	return v
}

const admin = "/api/v1/admin"
