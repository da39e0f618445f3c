package cli

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

type roceItem struct {
	ID        string `json:"id,omitempty"`
	Hostname  string `json:"hostname"`
	Interface string `json:"interface"`
	IPv4CIDR  string `json:"ipv4_cidr"`
}

const roceHeader = "ID HOSTNAME INTERFACE IPV4_CIDR"

// roceImport converts a CSV file (hostname,interface,ipv4_cidr) into one
// bulk upsert. Every row is checked first; a bad row stops the import
// with its line number and nothing is sent.
func roceImport(ctx context.Context, s *session, args []string) error {
	path := s.flags().String("csv", "", "CSV `file` with the header hostname,interface,ipv4_cidr (required)")
	s.fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	if *path == "" {
		return usagef("--csv is required")
	}
	rows, err := readCSV(*path, "hostname", "interface", "ipv4_cidr")
	if err != nil {
		return err
	}
	items, err := roceRows(*path, rows)
	if err != nil {
		return err
	}
	var out struct{ Items []roceItem }
	raw, err := s.call(ctx, http.MethodPost, admin+"/maas-sites/"+pos[0]+"/roce-assignments", map[string]any{"items": items}, &out, nil)
	if err != nil {
		return err
	}
	return s.show(raw, roceHeader, roceTable(out.Items))
}

func roceRows(path string, rows []row) ([]roceItem, error) {
	items := make([]roceItem, 0, len(rows))
	seen := map[string]int{}
	for _, r := range rows {
		it := roceItem{Hostname: strings.ToLower(r.fields["hostname"]), Interface: r.fields["interface"], IPv4CIDR: r.fields["ipv4_cidr"]}
		a := lifecycle.RoCEAssignment{Hostname: it.Hostname, Interface: it.Interface, IPv4CIDR: it.IPv4CIDR}
		if err := a.Validate(); err != nil {
			return nil, usagef("%s:%d: %s", path, r.line, message(err))
		}
		k := it.Hostname + "/" + it.Interface
		if l, dup := seen[k]; dup {
			return nil, usagef("%s:%d: %s %s repeats line %d", path, r.line, it.Hostname, it.Interface, l)
		}
		seen[k] = r.line
		items = append(items, it)
	}
	return items, nil
}

func roceTable(items []roceItem) [][]string {
	rows := [][]string{}
	for _, it := range items {
		rows = append(rows, []string{it.ID, it.Hostname, it.Interface, it.IPv4CIDR})
	}
	return rows
}

func roceList(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	host := fs.String("hostname", "", "only this host")
	limit := limitFlag(fs)
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	q := url.Values{}
	if *host != "" {
		q.Set("hostname", *host)
	}
	items, raw, err := s.listAll(ctx, admin+"/maas-sites/"+url.PathEscape(pos[0])+"/roce-assignments", q, "items", *limit)
	if err != nil {
		return err
	}
	assignments, err := decodeAll[roceItem](items)
	if err != nil {
		return err
	}
	return s.show(raw, roceHeader, roceTable(assignments))
}

func roceDelete(ctx context.Context, s *session, args []string) error {
	return s.deleteIn(ctx, args, "roce-assignments")
}

// message is a lifecycle error's operator text without its op.
func message(err error) string {
	if e, ok := err.(*lifecycle.Error); ok && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}
