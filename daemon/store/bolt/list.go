package bolt

import (
	"bytes"
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// ListNodes implements lifecycle.NodeStore. It walks the narrowest index
// the filter allows (hostname, site and status, site, status; the node
// bucket itself for none) from the page's cursor, so a page reads about
// Limit records.
func (s *Store) ListNodes(ctx context.Context, f lifecycle.NodeFilter) ([]lifecycle.Node, error) {
	out := []lifecycle.Node{}
	err := s.view(ctx, "store.ListNodes", func(tx *bbolt.Tx) error {
		c, pre := nodeCursor(tx, f)
		for k, _ := seekAfter(c, pre, []byte(f.After)); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
			var n lifecycle.Node
			if _, err := get(tx.Bucket(bNodes), string(k[len(pre):]), &n); err != nil {
				return err
			}
			if rules.NodeMatches(f, n) {
				out = append(out, n)
			}
			if f.Limit > 0 && len(out) == f.Limit {
				break
			}
		}
		return nil
	})
	if f.Limit <= 0 && f.After == "" {
		rules.SortNodes(out)
	}
	return out, err
}

// nodeCursor picks the index for f and the key prefix of its matches.
func nodeCursor(tx *bbolt.Tx, f lifecycle.NodeFilter) (*bbolt.Cursor, []byte) {
	var pre []byte
	switch st := string(f.Status); {
	case f.Hostname != "":
		pre = prefix("h", strings.ToLower(f.Hostname))
	case f.SiteID != "" && st != "":
		pre = prefix("st", f.SiteID, st)
	case f.SiteID != "":
		pre = prefix("s", f.SiteID)
	case st != "":
		pre = prefix("t", st)
	default:
		return tx.Bucket(bNodes).Cursor(), []byte{}
	}
	return tx.Bucket(bNodeIndex).Cursor(), pre
}

// seekAfter positions c on the first key under pre after pre+pos (the
// first under pre when pos is empty).
func seekAfter(c *bbolt.Cursor, pre, pos []byte) ([]byte, []byte) {
	from := append(append([]byte{}, pre...), pos...)
	k, v := c.Seek(from)
	if len(pos) > 0 && bytes.Equal(k, from) {
		k, v = c.Next()
	}
	return k, v
}

// ListRuns implements lifecycle.RunStore. Each index prefix the filter
// needs (one per status when several are asked) yields at most Limit
// matches from the cursor; their union, sorted and cut, is the page.
func (s *Store) ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error) {
	const op = "store.ListRuns"
	out := []lifecycle.Run{}
	var after *lifecycle.Run
	err := s.view(ctx, op, func(tx *bbolt.Tx) error {
		var pos []byte
		if f.After != "" {
			a, err := loadRun(tx, op, f.After)
			if err != nil {
				return afterErr(op, f.After, err)
			}
			after, pos = &a, runPos(a)
		}
		for _, pre := range runPrefixes(f) {
			got, err := walkRuns(tx, f, pre, pos)
			if err != nil {
				return err
			}
			out = append(out, got...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rules.PageRuns(op, f, out, after)
}

// afterErr turns a cursor's unknown run into invalid (field "after").
func afterErr(op, id string, err error) error {
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.Invalid(op, "after", "run %.64q is not a run: the cursor is not valid", id)
	}
	return err
}

// runPrefixes are the index prefixes that together hold f's matches.
func runPrefixes(f lifecycle.RunFilter) [][]byte {
	switch {
	case f.NodeID != "":
		return [][]byte{prefix("n", f.NodeID)}
	case f.BatchID != "":
		return [][]byte{prefix("b", f.BatchID)}
	case len(f.Statuses) > 0:
		var out [][]byte
		for _, st := range f.Statuses {
			switch {
			case f.SiteID != "":
				out = append(out, prefix("ss", f.SiteID, string(st)))
			case f.Kind != "":
				out = append(out, prefix("kt", string(f.Kind), string(st)))
			default:
				out = append(out, prefix("t", string(st)))
			}
		}
		return out
	case f.SiteID != "" && f.Kind != "":
		return [][]byte{prefix("ks", string(f.Kind), f.SiteID)}
	case f.SiteID != "":
		return [][]byte{prefix("s", f.SiteID)}
	case f.Kind != "":
		return [][]byte{prefix("k", string(f.Kind))}
	}
	return [][]byte{prefix("a")}
}

// walkRuns reads up to f.Limit matches under pre after pos.
func walkRuns(tx *bbolt.Tx, f lifecycle.RunFilter, pre, pos []byte) ([]lifecycle.Run, error) {
	var out []lifecycle.Run
	c := tx.Bucket(bRunIndex).Cursor()
	for k, _ := seekAfter(c, pre, pos); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
		var r lifecycle.Run
		if _, err := get(tx.Bucket(bRuns), string(k[len(pre)+8:]), &r); err != nil {
			return nil, err
		}
		if rules.RunMatches(f, r) {
			out = append(out, r)
		}
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}
