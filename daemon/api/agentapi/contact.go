package agentapi

import "net/http"

// touch records the node's contact unless it was written within
// ContactEvery, so a node polling often costs one write per ContactEvery,
// not per poll. A failed write is forgotten, so the next poll tries again.
func (a *API) touch(r *http.Request, node string) error {
	if !a.contacts.Allow(node, a.cfg.Clock.Now(), a.cfg.ContactEvery) {
		return nil
	}
	err := a.cfg.Store.TouchNodeContact(r.Context(), node)
	if err != nil {
		a.contacts.Forget(node)
	}
	return err
}
