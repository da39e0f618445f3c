//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// RoCEOn implements op.SiteConfig.
func (t txn) RoCEOn(siteID, hostname, iface string) (lifecycle.RoCEAssignment, bool, error) {
	var a lifecycle.RoCEAssignment
	ok, err := get(t.Tx, &a, `SELECT data FROM roce_assignments WHERE site_id = ? AND hostname = ? AND interface = ?`,
		siteID, hostname, iface)
	return a, ok, err
}

// SaveRoCE implements op.SiteConfig.
func (t txn) SaveRoCE(a lifecycle.RoCEAssignment) error {
	data, err := js(a)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO roce_assignments (id, site_id, hostname, interface, data) VALUES (?1, ?2, ?3, ?4, ?5)
		ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, interface = excluded.interface, data = excluded.data`,
		a.ID, a.SiteID, a.Hostname, a.Interface, data)
	return err
}

// RoCEAssignments implements op.SiteConfig.
func (t txn) RoCEAssignments(siteID, hostname string) ([]lifecycle.RoCEAssignment, error) {
	return list[lifecycle.RoCEAssignment](t.Tx, `SELECT data FROM roce_assignments WHERE site_id = ?1 AND (?2 = '' OR hostname = ?2)`,
		siteID, hostname)
}

// DeleteRoCE implements op.SiteConfig.
func (t txn) DeleteRoCE(siteID, id string) (bool, error) {
	return deleted(t.Exec(`DELETE FROM roce_assignments WHERE id = ? AND site_id = ?`, id, siteID))
}
