package bolt

import (
	"bytes"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// Index keys are a prefix naming the lookup and its values, each ended by
// a zero byte, then the record's position: a node's id, or a run's
// request time (8 bytes, big-endian Unix nanoseconds) and id, so a prefix
// scan walks the matches in list order and a page seeks to its cursor.

func prefix(parts ...string) []byte {
	return []byte(strings.Join(parts, "\x00") + "\x00")
}

// nodeKeys are n's entries in bNodeIndex: by site, status, site and
// status, and lower-cased hostname.
func nodeKeys(n lifecycle.Node) [][]byte {
	st := string(n.Status)
	return [][]byte{
		append(prefix("s", n.SiteID), n.ID...),
		append(prefix("t", st), n.ID...),
		append(prefix("st", n.SiteID, st), n.ID...),
		append(prefix("h", strings.ToLower(n.Hostname)), n.ID...),
	}
}

// runPos is a run's position in list order: request time, then id.
func runPos(r lifecycle.Run) []byte {
	var ns uint64
	if r.RequestedAt.After(time.Unix(0, 0)) {
		ns = uint64(r.RequestedAt.UnixNano())
	}
	return append(u64(ns), r.ID...)
}

// runKeys are r's entries in bRunIndex: all runs, by site, node, batch,
// status, site and status, kind, kind and site, kind and status.
func runKeys(r lifecycle.Run) [][]byte {
	pos, st, kind := runPos(r), string(r.Status), string(r.Kind)
	keys := [][]byte{
		append(prefix("a"), pos...),
		append(prefix("s", r.SiteID), pos...),
		append(prefix("n", r.NodeID), pos...),
		append(prefix("t", st), pos...),
		append(prefix("ss", r.SiteID, st), pos...),
		append(prefix("k", kind), pos...),
		append(prefix("ks", kind, r.SiteID), pos...),
		append(prefix("kt", kind, st), pos...),
	}
	if r.BatchID != "" {
		keys = append(keys, append(prefix("b", r.BatchID), pos...))
	}
	return keys
}

// reindex replaces the index entries old (nil for a new record) with now.
func reindex(idx *bbolt.Bucket, old, now [][]byte) error {
	for _, k := range old {
		if !containsKey(now, k) {
			if err := idx.Delete(k); err != nil {
				return err
			}
		}
	}
	for _, k := range now {
		if !containsKey(old, k) {
			if err := idx.Put(k, []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func containsKey(keys [][]byte, k []byte) bool {
	for _, o := range keys {
		if bytes.Equal(o, k) {
			return true
		}
	}
	return false
}

// putNode writes n and moves its index entries from the stored version's.
func putNode(tx *bbolt.Tx, n lifecycle.Node) error {
	var old lifecycle.Node
	ok, err := get(tx.Bucket(bNodes), n.ID, &old)
	if err != nil {
		return err
	}
	var was [][]byte
	if ok {
		was = nodeKeys(old)
	}
	if err := reindex(tx.Bucket(bNodeIndex), was, nodeKeys(n)); err != nil {
		return err
	}
	return put(tx.Bucket(bNodes), []byte(n.ID), n)
}

// unindexNode removes node id's index entries (before the node goes).
func unindexNode(tx *bbolt.Tx, id string) error {
	var old lifecycle.Node
	ok, err := get(tx.Bucket(bNodes), id, &old)
	if err != nil || !ok {
		return err
	}
	return reindex(tx.Bucket(bNodeIndex), nodeKeys(old), nil)
}

// putRun writes r and moves its index entries from the stored version's.
func putRun(tx *bbolt.Tx, r lifecycle.Run) error {
	var old lifecycle.Run
	ok, err := get(tx.Bucket(bRuns), r.ID, &old)
	if err != nil {
		return err
	}
	var was [][]byte
	if ok {
		was = runKeys(old)
	}
	if err := reindex(tx.Bucket(bRunIndex), was, runKeys(r)); err != nil {
		return err
	}
	return put(tx.Bucket(bRuns), []byte(r.ID), r)
}
