package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
)

// runRoutes are the routes every kind of run has, made from one table
// for each kind of runKinds: list, get (a watch polls it) and the seven
// recovery actions of answer.Recoveries. What a kind adds (its start
// route, its list filters, its evidence) is in its runKind.
func (a *API) runRoutes() []route {
	var rs []route
	for _, k := range runKinds {
		base := Prefix + "/" + k.Collection
		rs = append(rs, route{http.MethodGet, base, viewer, a.listRuns(k)},
			route{http.MethodGet, base + "/{id}", viewer, a.getRun(k)})
		for _, rc := range answer.Recoveries {
			rs = append(rs, route{http.MethodPost, base + "/{id}/" + rc.Path, operator, a.recoverRun(k, rc.Action)})
		}
	}
	return rs
}
