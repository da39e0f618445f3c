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

// hostFree fails when another undeleted node of the site has hostname.
func hostFree(tx *sql.Tx, op, siteID, hostname string) error {
	var other string
	err := tx.QueryRow(`SELECT id FROM nodes WHERE site_id = ? AND host_key = ?`, siteID, strings.ToLower(hostname)).Scan(&other)
	switch {
	case err == sql.ErrNoRows:
		return nil
	case err != nil:
		return err
	}
	return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %q is already node %s in this site", hostname, other)
}

// CreateNode implements lifecycle.NodeStore.
func (s *Store) CreateNode(ctx context.Context, n lifecycle.Node) error {
	const op = "store.CreateNode"
	if err := rules.ValidateNewNode(op, n); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadSite(tx, op, n.SiteID); err != nil {
			return err
		}
		if ok, err := exists(tx, `SELECT 1 FROM nodes WHERE id = ?`, n.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node id %q was already used; node ids are never reused", n.ID)
			}
			return err
		}
		if err := hostFree(tx, op, n.SiteID, n.Hostname); err != nil {
			return err
		}
		n = rules.StampNewNode(n, s.now())
		return saveNode(tx, n, true)
	})
}

func loadNode(tx *sql.Tx, op, id string) (lifecycle.Node, error) {
	var n lifecycle.Node
	ok, err := get(tx, &n, `SELECT data FROM nodes WHERE id = ?`, id)
	if err == nil && !ok {
		err = notFound(op, "node", id)
	}
	return n, err
}

// GetNode implements lifecycle.NodeStore.
func (s *Store) GetNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.GetNode"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		n, err = loadNode(tx, op, id)
		return err
	})
	return n, err
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

// TransitionNode implements lifecycle.NodeStore.
func (s *Store) TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (n lifecycle.Node, err error) {
	const op = "store.TransitionNode"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		cur, err := loadNode(tx, op, t.NodeID)
		if err != nil {
			return err
		}
		var write bool
		if n, write, err = rules.Transition(op, cur, t, s.now()); err != nil || !write {
			return err
		}
		return saveNode(tx, n, false)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

// UpdateNode implements lifecycle.NodeStore.
func (s *Store) UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (n lifecycle.Node, err error) {
	const op = "store.UpdateNode"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		old, err := loadNode(tx, op, id)
		if err != nil {
			return err
		}
		var rehosted bool
		if n, rehosted, err = rules.UpdateNode(op, old, fn, s.now()); err != nil {
			return err
		}
		if rehosted {
			if err := hostFree(tx, op, n.SiteID, n.Hostname); err != nil {
				return err
			}
		}
		return saveNode(tx, n, false)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

// LoadNode implements op.Nodes.
func (t txn) LoadNode(id string) (lifecycle.Node, bool, error) {
	var n lifecycle.Node
	ok, err := get(t.Tx, &n, `SELECT data FROM nodes WHERE id = ?`, id)
	return n, ok, err
}
