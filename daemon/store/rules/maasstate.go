package rules

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// UpdateMaasState applies fn to node n's MAAS state record st (ok=false
// when it has none yet: a fresh record for n). The node and site of the
// record cannot change (invalid). It returns the record to write.
func UpdateMaasState(op string, n lifecycle.Node, st lifecycle.NodeMaasState, ok bool, fn func(*lifecycle.NodeMaasState) error) (lifecycle.NodeMaasState, error) {
	if !ok {
		st = lifecycle.NodeMaasState{NodeID: n.ID, SiteID: n.SiteID, MaasSystemID: n.MaasSystemID}
	}
	if err := fn(&st); err != nil {
		return st, err
	}
	if st.NodeID != n.ID || st.SiteID != n.SiteID {
		return st, lifecycle.Invalid(op, "node_id", "the node and site of a MAAS state record cannot change")
	}
	return st, nil
}
