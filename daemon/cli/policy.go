package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
)

func policyGet(ctx context.Context, s *session, args []string) error {
	s.flags()
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	return s.showPolicy(ctx, http.MethodGet, pos[0], nil)
}

// policySet patches the policy with key=value pairs; a value that is
// JSON (true, 4) is sent as such, anything else as a string.
func policySet(ctx context.Context, s *session, args []string) error {
	s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, -1)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("want SITE key=value...")
	}
	body := map[string]any{}
	for _, kv := range pos[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("%q is not key=value", kv)
		}
		var j any
		if json.Unmarshal([]byte(v), &j) == nil {
			body[k] = j
		} else {
			body[k] = v
		}
	}
	return s.showPolicy(ctx, http.MethodPatch, pos[0], body)
}

func (s *session) showPolicy(ctx context.Context, method, site string, body any) error {
	var p map[string]any
	raw, err := s.call(ctx, method, admin+"/maas-sites/"+site+"/policy", body, &p, nil)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := make([][]string, 0, len(keys))
	for _, k := range keys {
		v, _ := json.Marshal(p[k])
		rows = append(rows, []string{k, strings.Trim(string(v), `"`)})
	}
	return s.show(raw, "KEY VALUE", rows)
}
