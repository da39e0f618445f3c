package console

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// actionInfo is a recovery action: its route's last path element, its
// label and what it does, shown on its confirm page; Recommended marks
// the run's recommended action on the run page.
type actionInfo struct {
	Path, Label, Does string
	Recommended       bool
}

// actions are the seven recovery actions of seed 001 §4.15, in its order.
var actions = []actionInfo{
	{"retry", "Retry stage", "Runs the failed stage again as a new attempt, then continues the workflow.", false},
	{"resume", "Resume", "Continues the run from where it stopped, without repeating finished stages.", false},
	{"rerun", "Rerun", "Runs the workflow again from its first stage on the same node.", false},
	{"restart-clean", "Restart clean", "Releases what the run did in MAAS and starts again from a clean machine.", false},
	{"cancel", "Cancel", "Stops the run; finished stages are compensated where the workflow says so.", false},
	{"adopt", "Adopt observed state", "Accepts what MAAS shows now as the stage's outcome and continues.", false},
	{"mark-manual-intervention", "Mark manual intervention", "Parks the run for a person: nothing runs until an operator acts again.", false},
}

// validActions are the recovery actions the API accepts for run now
// (lifecycle.CheckAction: valid in its state, not already satisfied),
// the run's recommended action first and marked.
func validActions(run lifecycle.Run) []actionInfo {
	var out []actionInfo
	for _, a := range actions {
		act, _ := answer.RecoveryAction(a.Path)
		if noop, err := lifecycle.CheckAction(act, run.Status); noop || err != nil {
			continue
		}
		if a.Recommended = act == run.RecommendedAction; a.Recommended {
			out = slices.Insert(out, 0, a)
		} else {
			out = append(out, a)
		}
	}
	return out
}

// actionRoutes registers every action's confirm page (GET) and its form (POST).
func (c *Console) actionRoutes() {
	m := c.mux
	m.Handle("GET /console/runs/{id}/act/{action}", c.page(c.confirmRecovery))
	m.Handle("POST /console/runs/{id}/act/{action}", c.post(c.doRecovery, true))
	m.Handle("GET /console/nodes/{id}/activate", c.page(c.confirmActivate))
	m.Handle("POST /console/nodes/{id}/activate", c.post(c.doActivate, true))
	m.Handle("GET /console/nodes/{id}/decommission", c.page(c.confirmDecommission))
	m.Handle("POST /console/nodes/{id}/decommission", c.post(c.doDecommission, true))
}

// confirmData is a confirm page: what will be done, to what, and the form.
type confirmData struct {
	Heading, Does, Target, TargetURL, Action string
	Stages                                   []lifecycle.Stage
	Modes                                    []lifecycle.DecommissionMode
	Mode                                     lifecycle.DecommissionMode
	Storage                                  []lifecycle.StorageCleanup
	Key                                      string // the Idempotency-Key of a decommission
}

func findAction(path string) (actionInfo, bool) {
	i := slices.IndexFunc(actions, func(a actionInfo) bool { return a.Path == path })
	if i < 0 {
		return actionInfo{}, false
	}
	return actions[i], true
}

func (c *Console) confirmRecovery(w http.ResponseWriter, r *http.Request, s *session) {
	a, ok := findAction(r.PathValue("action"))
	if !ok || !canAct(s) {
		c.refuseAction(w, r, s, ok)
		return
	}
	id := r.PathValue("id")
	d := confirmData{Heading: a.Label, Does: a.Does, Target: "run " + id, TargetURL: "/console/runs/" + url.PathEscape(id),
		Action: r.URL.Path}
	c.render(w, r, http.StatusOK, "confirm", view{Title: a.Label, Session: s, Data: d})
}

// doRecovery posts the action to the onboarding's or the decommission's
// recovery route, with the reason, and goes back to the run.
func (c *Console) doRecovery(w http.ResponseWriter, r *http.Request, s *session) {
	a, ok := findAction(r.PathValue("action"))
	if !ok {
		c.fail(w, r, s, http.StatusNotFound, "Not found", "no such action")
		return
	}
	id := r.PathValue("id")
	k, _, err := c.findRun(r.Context(), s, id)
	if err == nil {
		_, _, err = c.client(s).Recover(r.Context(), k, id, a.Path, r.PostFormValue("reason"))
	}
	if err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/console/runs/"+url.PathEscape(id), http.StatusSeeOther)
}

func (c *Console) confirmActivate(w http.ResponseWriter, r *http.Request, s *session) {
	if !canAct(s) {
		c.refuseAction(w, r, s, true)
		return
	}
	id := r.PathValue("id")
	d := confirmData{Heading: "Activate node", Target: "node " + id, TargetURL: "/console/nodes/" + url.PathEscape(id), Action: r.URL.Path,
		Does: "Marks the node active: it is offered for tenant work again (its agent must be enrolled and healthy)."}
	c.render(w, r, http.StatusOK, "confirm", view{Title: "Activate node", Session: s, Data: d})
}

func (c *Console) doActivate(w http.ResponseWriter, r *http.Request, s *session) {
	id := url.PathEscape(r.PathValue("id"))
	body := map[string]string{"reason": r.PostFormValue("reason")}
	if err := c.call(r.Context(), s, http.MethodPost, "/nodes/"+id+"/activate", nil, body, nil, nil); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/console/nodes/"+id, http.StatusSeeOther)
}

var modes = []lifecycle.DecommissionMode{lifecycle.ModeSoftReset, lifecycle.ModeReimage, lifecycle.ModeFullDecommission, lifecycle.ModeStorageCleanup}

// confirmDecommission shows the stages the chosen mode runs (soft_reset
// unless ?mode= names another) and the form that starts it.
func (c *Console) confirmDecommission(w http.ResponseWriter, r *http.Request, s *session) {
	if !canAct(s) {
		c.refuseAction(w, r, s, true)
		return
	}
	id := r.PathValue("id")
	mode := lifecycle.DecommissionMode(r.URL.Query().Get("mode"))
	if mode.Stages() == nil {
		mode = lifecycle.ModeSoftReset
	}
	d := confirmData{Heading: "Decommission node", Target: "node " + id, TargetURL: "/console/nodes/" + url.PathEscape(id),
		Action: r.URL.Path, Stages: mode.Stages(), Modes: modes, Mode: mode, Key: "console-" + randomID()[:32],
		Storage: []lifecycle.StorageCleanup{lifecycle.StorageAll, lifecycle.StorageLocal, lifecycle.StorageWeka, lifecycle.StorageDrives, lifecycle.StorageNone},
		Does:    fmt.Sprintf("Starts a %s decommission: the stages below run in order; the node leaves tenant service.", mode)}
	c.render(w, r, http.StatusOK, "confirm", view{Title: "Decommission node", Session: s, Data: d})
}

// doDecommission starts the decommission (the form's Idempotency-Key
// makes a double submit start it once) and shows it.
func (c *Console) doDecommission(w http.ResponseWriter, r *http.Request, s *session) {
	q := answer.DecommissionRequest{Mode: lifecycle.DecommissionMode(r.PostFormValue("mode")),
		StorageCleanup: lifecycle.StorageCleanup(r.PostFormValue("storage_cleanup")),
		Erase:          lifecycle.EraseMode(r.PostFormValue("erase")), Reason: r.PostFormValue("reason")}
	key := strings.TrimSpace(r.PostFormValue("idempotency_key"))
	out, _, err := c.client(s).Decommission(r.Context(), r.PathValue("id"), q, key)
	if err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/console/runs/"+url.PathEscape(out.DecommissionID), http.StatusSeeOther)
}

// refuseAction answers a confirm page the session may not see.
func (c *Console) refuseAction(w http.ResponseWriter, r *http.Request, s *session, known bool) {
	if !known {
		c.fail(w, r, s, http.StatusNotFound, "Not found", "no such action")
		return
	}
	c.fail(w, r, s, http.StatusForbidden, "Forbidden", "role "+string(s.role)+" may not do this; it needs operator")
}
