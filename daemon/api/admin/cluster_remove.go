package admin

import (
	"net/http"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ErrNotClustered is RemoveMember's answer on a store that one daemon
// opens alone (bolt): it has no members to remove.
var ErrNotClustered = lifecycle.Errorf(lifecycle.CodeConflict, "store.RemoveMember",
	"the store is not clustered (store.backend bolt): it has no members to remove")

// removeClusterMember answers DELETE /cluster/members/{id}: the member
// leaves the store's cluster (through the Raft leader) and the removal is
// audited with the X-Audit-Reason header.
func (a *API) removeClusterMember(r *http.Request, c *call) (int, any, error) {
	const op = "admin.removeClusterMember"
	id, err := strconv.ParseUint(c.vars["id"], 10, 64)
	if err != nil || id == 0 {
		return 0, nil, lifecycle.Invalid(op, "id", "%q is not a member id: `maas-sidecar cluster status` lists the members' ids", c.vars["id"])
	}
	m, err := a.cluster.RemoveMember(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "cluster.remove_member", kind: "cluster_member", id: strconv.FormatUint(m.ID, 10),
		prior: m.Role, expected: "removed", correlated: map[string]string{"address": m.Address}})
	return http.StatusOK, m, nil
}
