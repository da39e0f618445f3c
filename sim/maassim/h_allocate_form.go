package maassim

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// parseAllocFilter validates allocate's parameters as AcquireNodeForm
// does: an unknown key is 400 "No such constraint.", a malformed number or
// an unknown tag, zone or pool is a 400 naming the field.
func parseAllocFilter(c *call) (allocFilter, *apiError) {
	p := c.params
	known := map[string]bool{}
	for _, k := range allocConstraints {
		known[k] = true
	}
	errs := map[string][]string{}
	for k := range p {
		if !known[k] && !allocOptions[k] {
			errs[k] = []string{"No such constraint."}
		}
	}
	f := allocFilter{names: set(p["name"], same), ids: set(p["system_id"], same),
		tags: set(splitTags(p["tags"]), same), notTags: set(splitTags(p["not_tags"]), same)}
	f.arch = p.Get("arch")
	f.cpus = number(p.Get("cpu_count"), "cpu_count", "Invalid CPU count: number required.", errs)
	f.memMiB = number(p.Get("mem"), "mem", "Invalid memory: number of MiB required.", errs)
	if unknown := splitTags(append(p["tags"], p["not_tags"]...)); len(unknown) > 0 {
		// The simulator defines no tags: every named tag is unknown.
		errs["tags"] = []string{"No such tag(s): " + quoteList(unknown) + "."}
	}
	// One zone and one pool exist, both "default" (clean_zone, clean_pool).
	for _, k := range []string{"zone", "not_in_zone", "pool", "not_in_pool"} {
		var unknown []string
		for _, v := range p[k] {
			if v != "default" && v != "" {
				unknown = append(unknown, v)
			}
		}
		if len(unknown) > 0 {
			what := strings.TrimPrefix(k, "not_in_")
			errs[k] = []string{"No such " + what + "(s): " + strings.Join(unknown, ", ") + "."}
		}
	}
	if len(errs) > 0 {
		return f, &apiError{status: http.StatusBadRequest, fields: errs}
	}
	return f, nil
}

// splitTags reads tags as MAAS does: repeated keys or comma-separated.
func splitTags(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	return strings.Join(q, ", ")
}

// number parses a FloatField; empty is 0 (no constraint).
func number(v, field, msg string, errs map[string][]string) float64 {
	if v == "" {
		return 0
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		errs[field] = []string{msg}
	}
	return n
}

// pyFloats writes numbers as Python's str(float) does: 4096 is "4096.0".
func pyFloats(vs []string) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		s := strconv.FormatFloat(n, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		out = append(out, s)
	}
	return out
}
