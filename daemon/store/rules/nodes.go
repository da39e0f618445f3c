package rules

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateNewNode checks a node about to be created: an id, a site, a
// hostname and a first status of bootstrap_issued or enrolling (invalid
// otherwise).
func ValidateNewNode(op string, n lifecycle.Node) error {
	switch {
	case n.ID == "":
		return lifecycle.Invalid(op, "id", "node id is required")
	case n.SiteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case strings.TrimSpace(n.Hostname) == "":
		return lifecycle.Invalid(op, "hostname", "hostname is required")
	case n.Status != lifecycle.NodeBootstrapIssued && n.Status != lifecycle.NodeEnrolling:
		return lifecycle.Invalid(op, "status", "a new node starts in bootstrap_issued or enrolling, not %q", n.Status)
	}
	return nil
}

// StampNewNode returns n as created at now, holding its identity and owned
// by no task.
func StampNewNode(n lifecycle.Node, now time.Time) lifecycle.Node {
	n.CreatedAt, n.UpdatedAt, n.IdentityRetained, n.OwningTaskID = now, now, true, ""
	return n
}

// Transition applies t to the node cur. A replay of a transition that
// already took effect returns cur and write=false; a node not in t.From is
// a conflict; lifecycle.CheckTransition judges the move. A move to deleted
// drops the node's identity (and the backend frees its hostname).
func Transition(op string, cur lifecycle.Node, t lifecycle.NodeTransition, now time.Time) (n lifecycle.Node, write bool, err error) {
	if cur.Status == t.To && cur.Status != t.From && cur.OwningTaskID == ownerFor(t) {
		return cur, false, nil // replay of a transition that already took effect
	}
	if cur.Status != t.From {
		return cur, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s, not %s; cannot move it to %s", cur.ID, cur.Status, t.From, t.To)
	}
	c := t.Context
	c.IdentityRetained = cur.IdentityRetained
	if err := lifecycle.CheckTransition(t.From, t.To, c); err != nil {
		return cur, false, err
	}
	cur.Status, cur.OwningTaskID, cur.UpdatedAt = t.To, ownerFor(t), now
	if t.To == lifecycle.NodeDeleted {
		cur.IdentityRetained = false
	}
	return cur, true, nil
}

func ownerFor(t lifecycle.NodeTransition) string {
	if t.To.NeedsOwningTask() {
		return t.Context.TaskID
	}
	return ""
}

// UpdateNode applies fn to a copy of old: id, site, status and owning task
// change only through Transition (invalid), a deleted node and a revoked
// identity are final (conflict), and a new hostname must not be blank
// (invalid). It returns the node to write, created as before and updated
// at now, and rehost=true when its hostname changed (the backend checks
// the new name is free in the site).
func UpdateNode(op string, old lifecycle.Node, fn func(*lifecycle.Node) error, now time.Time) (n lifecycle.Node, rehost bool, err error) {
	n = old
	if err := fn(&n); err != nil {
		return n, false, err
	}
	switch {
	case n.ID != old.ID || n.SiteID != old.SiteID || n.Status != old.Status || n.OwningTaskID != old.OwningTaskID:
		return n, false, lifecycle.Invalid(op, "status", "id, site, status and owning task change only through TransitionNode")
	case old.Status == lifecycle.NodeDeleted:
		return n, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is deleted", old.ID)
	case n.IdentityRetained && !old.IdentityRetained:
		return n, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "a revoked node identity cannot be restored")
	}
	rehost = !strings.EqualFold(old.Hostname, n.Hostname)
	if rehost && strings.TrimSpace(n.Hostname) == "" {
		return n, false, lifecycle.Invalid(op, "hostname", "hostname is required")
	}
	n.CreatedAt, n.UpdatedAt = old.CreatedAt, now
	return n, rehost, nil
}

// SortNodes orders nodes by hostname, by ID among equals.
func SortNodes(nodes []lifecycle.Node) {
	slices.SortFunc(nodes, func(a, b lifecycle.Node) int {
		return cmp.Or(strings.Compare(a.Hostname, b.Hostname), strings.Compare(a.ID, b.ID))
	})
}

// CheckDeleteUnenrolled allows DeleteUnenrolledNode only for an enrolling
// node whose agent never enrolled (conflict otherwise): the record that a
// cancelled onboarding created and nothing else knows.
func CheckDeleteUnenrolled(op string, n lifecycle.Node) error {
	switch {
	case n.Status != lifecycle.NodeEnrolling:
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s; only a never-enrolled enrolling node is deleted", n.ID, n.Status)
	case n.EnrolledAt != nil || n.AgentCertSerial != "":
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s: its agent already enrolled; it is not deleted", n.ID)
	}
	return nil
}
