package lifecycle

import "fmt"

// CheckAuditEntries is invalid (naming the entry) when one of es lacks an
// actor, an action or a target kind: the stores refuse such an entry and
// write none of a batch that holds one.
func CheckAuditEntries(op string, es []AuditEntry) error {
	for i, e := range es {
		if e.Actor == "" || e.Action == "" || e.TargetKind == "" {
			return Invalid(op, fmt.Sprintf("audit[%d]", i), "an audit entry needs an actor, an action and a target kind")
		}
	}
	return nil
}
