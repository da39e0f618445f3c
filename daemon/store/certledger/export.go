package certledger

import (
	"context"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Export is the node's chain as a bundle an auditor verifies offline:
// its certificates oldest first, its site's log and the log's signed
// head, read in one transaction. not_found when the node has none.
func (l Ledger) Export(ctx context.Context, nodeID string) (cert.Bundle, error) {
	var b cert.Bundle
	err := l.B.CertView(ctx, func(r Records) error {
		recs, err := r.NodeRecords(nodeID)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return lifecycle.Errorf(lifecycle.CodeNotFound, "store.ExportCertificates", "node %s has no certificate", nodeID)
		}
		for _, rec := range recs {
			b.Certificates = append(b.Certificates, json.RawMessage(rec.Envelope))
		}
		site := recs[len(recs)-1].Site
		entries, err := r.SiteEntries(site)
		if err != nil {
			return err
		}
		h, err := r.SiteHead(site)
		b.Log = &cert.BundleLog{Entries: entries, Head: h.Signed}
		return err
	})
	return b, err
}
