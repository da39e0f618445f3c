package bolt

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func roceKey(a lifecycle.RoCEAssignment) []byte {
	return key(a.SiteID, strings.ToLower(a.Hostname), a.Interface)
}

// RoCEOn implements op.SiteConfig through the host/interface index.
func (t txn) RoCEOn(siteID, hostname, iface string) (lifecycle.RoCEAssignment, bool, error) {
	var a lifecycle.RoCEAssignment
	id := t.Bucket(bRoCEKeys).Get(key(siteID, hostname, iface))
	if id == nil {
		return a, false, nil
	}
	_, err := get(t.Bucket(bRoCE), string(id), &a)
	return a, true, err
}

// SaveRoCE implements op.SiteConfig.
func (t txn) SaveRoCE(a lifecycle.RoCEAssignment) error {
	if err := t.Bucket(bRoCEKeys).Put(roceKey(a), []byte(a.ID)); err != nil {
		return err
	}
	return put(t.Bucket(bRoCE), []byte(a.ID), a)
}

// RoCEAssignments implements op.SiteConfig.
func (t txn) RoCEAssignments(siteID, hostname string) ([]lifecycle.RoCEAssignment, error) {
	out := []lifecycle.RoCEAssignment{}
	err := t.Bucket(bRoCE).ForEach(func(k, _ []byte) error {
		var a lifecycle.RoCEAssignment
		if _, err := get(t.Bucket(bRoCE), string(k), &a); err != nil {
			return err
		}
		if a.SiteID == siteID && (hostname == "" || a.Hostname == hostname) {
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

// DeleteRoCE implements op.SiteConfig.
func (t txn) DeleteRoCE(siteID, id string) (bool, error) {
	var a lifecycle.RoCEAssignment
	ok, err := get(t.Bucket(bRoCE), id, &a)
	if err != nil || !ok || a.SiteID != siteID {
		return false, err
	}
	if err := t.Bucket(bRoCEKeys).Delete(roceKey(a)); err != nil {
		return false, err
	}
	return true, t.Bucket(bRoCE).Delete([]byte(id))
}
