package certledger

import (
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ExportRecord wraps a certificate as an export's record
// (lifecycle.KindCertificate); a backend emits them site by site in log
// order.
func ExportRecord(r cert.Record) (lifecycle.Record, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return lifecycle.Record{}, lifecycle.Wrap(lifecycle.CodeInternal, "certledger.ExportRecord", err)
	}
	return lifecycle.Record{Kind: lifecycle.KindCertificate, Key: lifecycle.CertificateKey(r.Site, r.Entry.Index), Data: raw}, nil
}

// Import stores an exported certificate with r.Put, which rebuilds the
// node's chain, the run's certificate and the site's log and head: the
// records must come in log order. A record that does not decode, or whose
// key or log entry does not match it, is invalid.
func Import(r Records, rec lifecycle.Record) error {
	const op = "store.Import"
	c, err := lifecycle.DecodeRecord[cert.Record](rec)
	if err != nil {
		return err
	}
	if rec.Key != lifecycle.CertificateKey(c.Site, c.Entry.Index) || c.Entry.Certificate != c.Digest || c.Digest == "" {
		return lifecycle.Invalid(op, "certificate", "record %q does not match its certificate's site, log index and digest", rec.Key)
	}
	h, err := r.SiteHead(c.Site)
	if err != nil {
		return err
	}
	if c.Entry.Index != h.Size || c.Entry.Hash != cert.EntryHash(h.Hash, h.Size, c.Digest, c.NodeID) {
		return lifecycle.Invalid(op, "certificate", "record %q does not chain from the site log's entry before it", rec.Key)
	}
	return r.Put(c)
}
