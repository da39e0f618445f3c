package lifecycle

// recordKey returns the kind and key of an exported record; an empty kind
// for a type that is not one.
func recordKey(v any) (RecordKind, string) {
	switch r := v.(type) {
	case Site:
		return KindSite, r.ID
	case SitePolicy:
		return KindSitePolicy, r.SiteID
	case Node:
		return KindNode, r.ID
	case NodeMaasState:
		return KindNodeMaasState, r.NodeID
	case Run:
		return KindRun, r.ID
	case RunEvent:
		return KindRunEvent, r.RunID + "/" + seqKey(r.Seq)
	case Batch:
		return KindBatch, r.ID
	case IdempotencyRecord:
		return KindIdempotency, r.Key
	case AuditEntry:
		return KindAudit, seqKey(r.Seq)
	case AdminToken:
		return KindAdminToken, r.ID
	case AgentTask:
		return KindAgentTask, r.ID
	case TaskSequence:
		return KindTaskSequence, r.NodeID
	case EnrollmentToken:
		return KindEnrollmentToken, r.Hash
	case EnrollmentNewest:
		return KindEnrollmentNewest, r.NodeID
	case PowerOverride:
		return KindPowerOverride, r.ID
	case RoCEAssignment:
		return KindRoCEAssignment, r.ID
	case WebhookEvent:
		return KindWebhook, seqKey(r.Seq)
	case FeedCursor:
		return KindFeedCursor, r.SiteID
	case OutboxEvent:
		return KindOutboxEvent, seqKey(r.Seq)
	case PartEvent:
		return KindPartEvent, r.Serial + "/" + r.ID
	case Sequence:
		return KindSequence, r.Name
	}
	return "", ""
}
