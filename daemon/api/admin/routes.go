package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Prefix is the root of every admin route.
const Prefix = "/api/v1/admin"

const (
	viewer   = lifecycle.RoleViewer
	operator = lifecycle.RoleOperator
	admin    = lifecycle.RoleAdmin
)

// routes is the admin API: method, path, the least role allowed, handler.
func (a *API) routes() []route {
	const site = Prefix + "/maas-sites/{id}"
	rs := []route{
		{http.MethodPost, Prefix + "/maas-sites", admin, a.createSite},
		{http.MethodGet, Prefix + "/maas-sites", viewer, a.listSites},
		{http.MethodGet, site, viewer, a.getSite},
		{http.MethodPatch, site, admin, a.patchSite},
		{http.MethodDelete, site, admin, a.deleteSite},
		{http.MethodPost, site + "/credentials", admin, a.putCredentials},
		{http.MethodPost, site + "/probe", operator, a.probeSite},
		{http.MethodGet, site + "/policy", viewer, a.getPolicy},
		{http.MethodPatch, site + "/policy", admin, a.patchPolicy},
		{http.MethodPost, site + "/power-overrides", admin, a.createOverride},
		{http.MethodGet, site + "/power-overrides", viewer, a.listOverrides},
		{http.MethodDelete, site + "/power-overrides/{oid}", admin, a.deleteOverride},
		{http.MethodPost, site + "/roce-assignments", admin, a.upsertRoCE},
		{http.MethodGet, site + "/roce-assignments", viewer, a.listRoCE},
		{http.MethodDelete, site + "/roce-assignments/{aid}", admin, a.deleteRoCE},
		{http.MethodPost, Prefix + "/onboardings", operator, a.onboard},
		{http.MethodPost, Prefix + "/onboardings/batch", operator, a.onboardBatch},
		{http.MethodGet, Prefix + "/nodes", viewer, a.listNodes},
		{http.MethodGet, Prefix + "/nodes/counts", viewer, a.countNodes}, // before /nodes/{id}
		{http.MethodGet, Prefix + "/batches", viewer, a.listBatches},
		{http.MethodPost, Prefix + "/nodes", operator, a.createNode},
		{http.MethodPost, Prefix + "/nodes/{id}/bootstrap", operator, a.reissueBootstrap},
		{http.MethodGet, Prefix + "/nodes/{id}", viewer, a.getNode},
		{http.MethodPost, Prefix + "/nodes/{id}/activate", operator, a.activateNode},
		{http.MethodGet, Prefix + "/nodes/{id}/inventory", viewer, a.getInventory},
		{http.MethodPost, Prefix + "/nodes/{id}/inventory/accept", operator, a.acceptInventory},
		{http.MethodPost, Prefix + "/nodes/{id}/revoke-certificate", operator, a.revokeCertificate},
		{http.MethodPost, Prefix + "/nodes/{id}/enrollment-token", admin, a.issueEnrollmentToken},
		{http.MethodPost, Prefix + "/tokens", admin, a.createToken},
		{http.MethodGet, Prefix + "/tokens", admin, a.listTokens},
		{http.MethodDelete, Prefix + "/tokens/{id}", admin, a.revokeToken},
		{http.MethodGet, Prefix + "/audit", viewer, a.listAudit},
		{http.MethodGet, Prefix + "/cluster", viewer, a.clusterStatus},
		{http.MethodDelete, Prefix + "/cluster/members/{id}", admin, a.removeClusterMember},
		{http.MethodGet, BackupPath, admin, a.backup},
		{http.MethodGet, Prefix + "/reconciliation/status", viewer, a.reconciliationStatus},
		{http.MethodGet, Prefix + "/reconciliation/drift", viewer, a.listDrift},
		{http.MethodPost, Prefix + "/reconciliation/drift/{node_id}/resolve", operator, a.resolveDrift},
		{http.MethodPost, Prefix + "/reconciliation/run", operator, a.runReconciliation},
	}
	rs = append(rs, route{http.MethodPost, Prefix + "/nodes/{id}/decommission", operator, a.decommission})
	rs = append(rs, a.repairRoutes()...)
	rs = append(rs, a.runRoutes()...)
	rs = append(rs, a.evidenceRoutes()...)
	rs = append(rs, a.healthRoutes()...)
	rs = append(rs, a.debugRoutes()...)
	return rs
}
