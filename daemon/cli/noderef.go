package cli

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// nodeRef adds --site to the verb's flags and returns the resolver of its
// NODE argument: operators name nodes by hostname, the API by id.
func (s *session) nodeRef() func(ctx context.Context, arg string) (string, error) {
	site := s.fs.String("site", "", "site `id` of a NODE hostname that is on several sites")
	return func(ctx context.Context, arg string) (string, error) { return s.resolveNode(ctx, arg, *site) }
}

// oneNode parses the arguments of a verb whose only argument is NODE (a
// hostname or an id) and whose only flag is nodeRef's --site, and
// returns the node's id.
func (s *session) oneNode(ctx context.Context, args []string) (string, error) {
	s.flags()
	ref := s.nodeRef()
	pos, err := s.parse(args, 1, "NODE")
	if err != nil {
		return "", err
	}
	return ref(ctx, pos[0])
}

// nodeMatch is a node GET /nodes?hostname= returned.
type nodeMatch struct {
	ID     string
	SiteID string `json:"site_id"`
	Status string
}

// resolveNode returns the id of the node arg names: the node with that
// hostname (on site, when given), preferring nodes that are not deleted;
// arg itself when no node has that hostname (it is then an id, and the
// daemon answers 404 for an unknown one). A hostname on several sites is
// a usage error naming them.
func (s *session) resolveNode(ctx context.Context, arg, site string) (string, error) {
	q := url.Values{"hostname": {arg}}
	if site != "" {
		q.Set("site_id", site)
	}
	var out struct{ Nodes []nodeMatch }
	if _, err := s.call(ctx, http.MethodGet, admin+"/nodes?"+q.Encode(), nil, &out, nil); err != nil {
		return "", err
	}
	m := liveFirst(out.Nodes)
	switch {
	case len(m) == 0:
		return arg, nil
	case len(m) == 1:
		return m[0].ID, nil
	}
	sites, ids := map[string]bool{}, make([]string, 0, len(m))
	for _, n := range m {
		sites[n.SiteID] = true
		ids = append(ids, n.ID)
	}
	if len(sites) > 1 {
		return "", usagef("hostname %q is on sites %s: give --site", arg, joinKeys(sites))
	}
	sort.Strings(ids)
	return "", usagef("hostname %q names nodes %s: give the node id", arg, strings.Join(ids, ", "))
}

// liveFirst drops the deleted nodes unless nothing else is left.
func liveFirst(ns []nodeMatch) []nodeMatch {
	var live []nodeMatch
	for _, n := range ns {
		if n.Status != "deleted" {
			live = append(live, n)
		}
	}
	if len(live) == 0 {
		return ns
	}
	return live
}

func joinKeys(m map[string]bool) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// auditedNode parses an audited node verb's command line: one NODE (an id
// or a hostname, resolved by ref) and the --reason the verb registered,
// which is required. It returns the node's id escaped for a URL path.
func (s *session) auditedNode(ctx context.Context, args []string, ref func(context.Context, string) (string, error)) (string, error) {
	pos, err := s.parse(args, 1, "NODE")
	if err != nil {
		return "", err
	}
	if s.reason == "" {
		return "", usagef("--reason is required")
	}
	id, err := ref(ctx, pos[0])
	return url.PathEscape(id), err
}
