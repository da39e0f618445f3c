package bolt

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	bbolt "go.etcd.io/bbolt"
)

// NodeRecords implements certledger.Records: the node's chain in order.
func (c certRecords) NodeRecords(nodeID string) ([]cert.Record, error) {
	var out []cert.Record
	err := c.scan(bCertNode, nodeID, func(v []byte) error {
		r, ok, err := c.record(string(v))
		if err == nil && !ok {
			err = fmt.Errorf("certificate %s of node %s has no record", v, nodeID)
		}
		out = append(out, r)
		return err
	})
	return out, err
}

// SiteEntries implements certledger.Records.
func (c certRecords) SiteEntries(site string) ([]cert.LogEntry, error) {
	var out []cert.LogEntry
	err := c.scan(bCertLog, site, func(v []byte) error {
		var e cert.LogEntry
		out = append(out, e)
		return json.Unmarshal(v, &out[len(out)-1])
	})
	return out, err
}

// scan calls fn with each value under id's prefix, in index order.
func (c certRecords) scan(bucket []byte, id string, fn func([]byte) error) error {
	b := c.bucket(bucket)
	if b == nil {
		return nil
	}
	p := append([]byte(id), 0)
	cur := b.Cursor()
	for k, v := cur.Seek(p); k != nil && bytes.HasPrefix(k, p) && len(k) == len(p)+8; k, v = cur.Next() {
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// Put implements certledger.Records.
func (c certRecords) Put(r cert.Record) error {
	bs := map[string]*bbolt.Bucket{}
	for _, name := range [][]byte{bCerts, bCertNode, bCertRuns, bCertLog, bCertHeads} {
		b, err := c.tx.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		bs[string(name)] = b
	}
	if err := put(bs[string(bCerts)], []byte(r.Digest), r); err != nil {
		return err
	}
	if err := bs[string(bCertNode)].Put(prefixed(r.NodeID, r.Entry.Index), []byte(r.Digest)); err != nil {
		return err
	}
	if r.RunID != "" {
		if err := bs[string(bCertRuns)].Put([]byte(r.RunID), []byte(r.Digest)); err != nil {
			return err
		}
	}
	if err := put(bs[string(bCertLog)], prefixed(r.Site, r.Entry.Index), r.Entry); err != nil {
		return err
	}
	return put(bs[string(bCertHeads)], []byte(r.Site), certledger.Head{Size: r.Entry.Index + 1, Hash: r.Entry.Hash, Signed: r.Head})
}

// exportCertificates emits every certificate, site by site in log order
// (the log bucket's key order), as lifecycle.KindCertificate records.
func exportCertificates(tx *bbolt.Tx, fn func(lifecycle.Record) error) error {
	c := certRecords{tx}
	b := c.bucket(bCertLog)
	if b == nil {
		return nil
	}
	return b.ForEach(func(_, raw []byte) error {
		var e cert.LogEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		r, ok, err := c.record(e.Certificate)
		if err == nil && !ok {
			err = fmt.Errorf("certificate %s of the log has no record", e.Certificate)
		}
		if err != nil {
			return err
		}
		rec, err := certledger.ExportRecord(r)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}
