//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// hostKey is the node's hostname key, NULL once deleted (the name is
// free again).
func hostKey(n lifecycle.Node) any {
	if n.Status == lifecycle.NodeDeleted {
		return nil
	}
	return strings.ToLower(n.Hostname)
}

func saveNode(tx *sql.Tx, n lifecycle.Node, create bool) error {
	data, err := js(n)
	if err != nil {
		return err
	}
	q := `UPDATE nodes SET host_key = ?3, status = ?4, data = ?5 WHERE id = ?1 AND site_id = ?2`
	if create {
		q = `INSERT INTO nodes (id, site_id, host_key, status, data) VALUES (?1, ?2, ?3, ?4, ?5)`
	}
	_, err = tx.Exec(q, n.ID, n.SiteID, hostKey(n), string(n.Status), data)
	return err
}

// LoadNode implements op.Nodes.
func (t txn) LoadNode(id string) (lifecycle.Node, bool, error) {
	var n lifecycle.Node
	ok, err := get(t.Tx, &n, `SELECT data FROM nodes WHERE id = ?`, id)
	return n, ok, err
}

// NodeExists implements op.Nodes.
func (t txn) NodeExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM nodes WHERE id = ?`, id)
}

// NodeOnHost implements op.Nodes through the host_key column.
func (t txn) NodeOnHost(siteID, hostname string) (string, error) {
	var id string
	err := t.QueryRow(`SELECT id FROM nodes WHERE site_id = ? AND host_key = ?`, siteID, strings.ToLower(hostname)).Scan(&id)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return id, err
}

// SaveNode implements op.Nodes: host_key follows the node (hostKey).
func (t txn) SaveNode(old *lifecycle.Node, n lifecycle.Node) error {
	return saveNode(t.Tx, n, old == nil)
}

// ListNodes implements lifecycle.NodeStore: a page in id order through
// the primary key and the (site_id, status) indexes, or every match by
// hostname then id.
func (s *Store) ListNodes(ctx context.Context, f lifecycle.NodeFilter) (out []lifecycle.Node, err error) {
	err = s.view(ctx, "store.ListNodes", func(tx *sql.Tx) error {
		out, err = list[lifecycle.Node](tx, `SELECT data FROM nodes WHERE (?1 = '' OR site_id = ?1) AND (?2 = '' OR status = ?2)
			AND (?3 = '' OR lower(json_extract(data, '$.hostname')) = lower(?3)) AND id > ?4 ORDER BY id LIMIT ?5`,
			f.SiteID, string(f.Status), f.Hostname, f.After, sqlLimit(f.Limit))
		return err
	})
	if err != nil {
		return nil, err
	}
	return rules.PageNodes(f, out), nil
}

// sqlLimit is LIMIT's argument for a filter's Limit: -1 (none) for 0.
func sqlLimit(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}
