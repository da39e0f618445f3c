package rules

import (
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// NodeMatches reports whether n is selected by f's SiteID, Status and
// Hostname (case-insensitive); After and Limit are not looked at.
func NodeMatches(f lifecycle.NodeFilter, n lifecycle.Node) bool {
	return (f.SiteID == "" || f.SiteID == n.SiteID) && (f.Status == "" || f.Status == n.Status) &&
		(f.Hostname == "" || strings.EqualFold(f.Hostname, n.Hostname))
}

// PageNodes orders matches as NodeFilter says: by hostname then id for a
// full list, by id for a page, cut after f.After and to f.Limit. A store
// without an index uses it on every match.
func PageNodes(f lifecycle.NodeFilter, nodes []lifecycle.Node) []lifecycle.Node {
	if f.Limit <= 0 && f.After == "" {
		SortNodes(nodes)
		return nodes
	}
	slices.SortFunc(nodes, func(a, b lifecycle.Node) int { return strings.Compare(a.ID, b.ID) })
	i, _ := slices.BinarySearchFunc(nodes, f.After, func(n lifecycle.Node, id string) int {
		if n.ID <= id {
			return -1
		}
		return 1
	})
	return cut(nodes[i:], f.Limit)
}

// PageRuns cuts matches (any order) to the page f asks for: sorted as
// SortRuns has it, after the run f.After, at most f.Limit. Invalid when
// f.After names a run that is not in all (every run of the store).
func PageRuns(op string, f lifecycle.RunFilter, runs []lifecycle.Run, after *lifecycle.Run) ([]lifecycle.Run, error) {
	SortRuns(runs)
	if f.After == "" {
		return cut(runs, f.Limit), nil
	}
	if after == nil {
		return nil, lifecycle.Invalid(op, "after", "run %.64q is not a run: the cursor is not valid", f.After)
	}
	i, _ := slices.BinarySearchFunc(runs, *after, func(r, a lifecycle.Run) int {
		if c := r.RequestedAt.Compare(a.RequestedAt); c != 0 {
			return c
		}
		if r.ID <= a.ID {
			return -1
		}
		return 1
	})
	return cut(runs[i:], f.Limit), nil
}

func cut[T any](s []T, limit int) []T {
	if limit > 0 && len(s) > limit {
		return s[:limit]
	}
	return s
}
