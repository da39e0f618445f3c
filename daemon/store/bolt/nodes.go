package bolt

import (
	"bytes"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func hostKey(siteID, hostname string) []byte {
	return []byte(siteID + "\x00" + strings.ToLower(hostname))
}

// LoadNode implements op.Nodes.
func (t txn) LoadNode(id string) (lifecycle.Node, bool, error) {
	var n lifecycle.Node
	ok, err := get(t.Bucket(bNodes), id, &n)
	return n, ok, err
}

// NodeExists implements op.Nodes.
func (t txn) NodeExists(id string) (bool, error) { return t.Bucket(bNodes).Get([]byte(id)) != nil, nil }

// NodeOnHost implements op.Nodes through the hostname index.
func (t txn) NodeOnHost(siteID, hostname string) (string, error) {
	return string(t.Bucket(bNodeHosts).Get(hostKey(siteID, hostname))), nil
}

// SaveNode implements op.Nodes: the hostname index holds undeleted nodes.
func (t txn) SaveNode(old *lifecycle.Node, n lifecycle.Node) error {
	var was, is []byte
	if old != nil && old.Status != lifecycle.NodeDeleted {
		was = hostKey(old.SiteID, old.Hostname)
	}
	if n.Status != lifecycle.NodeDeleted {
		is = hostKey(n.SiteID, n.Hostname)
	}
	if !bytes.Equal(was, is) {
		hosts := t.Bucket(bNodeHosts)
		if was != nil {
			if err := hosts.Delete(was); err != nil {
				return err
			}
		}
		if is != nil {
			if err := hosts.Put(is, []byte(n.ID)); err != nil {
				return err
			}
		}
	}
	return putNode(t.Tx, n)
}
