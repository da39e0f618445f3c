//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// certLedgerSchema is migration 7 (IF NOT EXISTS: a store rolled back
// to an older version by hand keeps its certificates): a certificate's row is its record;
// (site_id, log_index) is its place in the site log, and node_id with
// log_index orders the node's chain.
var certLedgerSchema = []string{
	`CREATE TABLE IF NOT EXISTS certificates (digest TEXT PRIMARY KEY, site_id TEXT NOT NULL, node_id TEXT NOT NULL,
		run_id TEXT, log_index INTEGER NOT NULL, data TEXT NOT NULL, UNIQUE (site_id, log_index), UNIQUE (run_id))`,
	`CREATE INDEX IF NOT EXISTS certificates_node ON certificates (node_id, log_index)`,
	`CREATE TABLE IF NOT EXISTS certificate_heads (site_id TEXT PRIMARY KEY, data TEXT NOT NULL)`,
}

var _ certledger.Backend = (*Store)(nil)

// CertView implements certledger.Backend.
func (s *Store) CertView(ctx context.Context, fn func(certledger.Records) error) error {
	return s.view(ctx, "store.CertView", func(tx *sql.Tx) error { return fn(certRecords{tx}) })
}

// CertUpdate implements certledger.Backend. It shares a transaction and
// a Raft commit with the other writes waiting (batch): a batch of runs
// certifies at once. fn reads the ledger's head in tx, so it may run
// again.
func (s *Store) CertUpdate(ctx context.Context, fn func(certledger.Records) error) error {
	return s.batch(ctx, "store.CertUpdate", func(tx *sql.Tx) error { return fn(certRecords{tx}) })
}

// certRecords is certledger.Records over one SQL transaction.
type certRecords struct{ tx *sql.Tx }

func (c certRecords) NodeLast(nodeID string) (string, error) {
	var r cert.Record
	_, err := get(c.tx, &r, `SELECT data FROM certificates WHERE node_id = ? ORDER BY log_index DESC LIMIT 1`, nodeID)
	return r.Digest, err
}

func (c certRecords) SiteHead(site string) (h certledger.Head, err error) {
	_, err = get(c.tx, &h, `SELECT data FROM certificate_heads WHERE site_id = ?`, site)
	return h, err
}

func (c certRecords) RunRecord(runID string) (r cert.Record, ok bool, err error) {
	if runID == "" {
		return r, false, nil
	}
	ok, err = get(c.tx, &r, `SELECT data FROM certificates WHERE run_id = ?`, runID)
	return r, ok, err
}

func (c certRecords) NodeRecords(nodeID string) ([]cert.Record, error) {
	return list[cert.Record](c.tx, `SELECT data FROM certificates WHERE node_id = ? ORDER BY log_index`, nodeID)
}

func (c certRecords) SiteEntries(site string) ([]cert.LogEntry, error) {
	recs, err := list[cert.Record](c.tx, `SELECT data FROM certificates WHERE site_id = ? ORDER BY log_index`, site)
	out := make([]cert.LogEntry, len(recs))
	for i, r := range recs {
		out[i] = r.Entry
	}
	return out, err
}

func (c certRecords) Put(r cert.Record) error {
	data, err := js(r)
	if err != nil {
		return err
	}
	run := sql.NullString{String: r.RunID, Valid: r.RunID != ""}
	if _, err := c.tx.Exec(`INSERT INTO certificates (digest, site_id, node_id, run_id, log_index, data) VALUES (?, ?, ?, ?, ?, ?)`,
		r.Digest, r.Site, r.NodeID, run, r.Entry.Index, data); err != nil {
		return err
	}
	head, err := js(certledger.Head{Size: r.Entry.Index + 1, Hash: r.Entry.Hash, Signed: r.Head})
	if err != nil {
		return err
	}
	_, err = c.tx.Exec(`INSERT INTO certificate_heads (site_id, data) VALUES (?1, ?2)
		ON CONFLICT (site_id) DO UPDATE SET data = excluded.data`, r.Site, head)
	return err
}

// exportCertificates emits every certificate, site by site in log order,
// as lifecycle.KindCertificate records.
func exportCertificates(tx *sql.Tx, fn func(lifecycle.Record) error) error {
	recs, err := list[cert.Record](tx, `SELECT data FROM certificates ORDER BY site_id, log_index`)
	if err != nil {
		return err
	}
	for _, r := range recs {
		rec, err := certledger.ExportRecord(r)
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}
