package lifecycle

import (
	"context"
	"time"
)

// Store is the persistence contract every backend (bbolt, dqlite) meets and
// daemon/store/storetest checks. Every method is one atomic operation.
// Errors are *Error: invalid (bad record, naming the field), not_found,
// conflict (duplicate, stale state, stale lease epoch), unavailable (the
// backend cannot be reached) and internal.
type Store interface {
	SiteStore
	NodeStore
	RunStore
	LeaseStore
	AuditStore
	TokenStore
	TaskStore
	EnrollmentStore
	SiteConfigStore
	MaasStateStore
	FeedStore
	OutboxStore
	PartStore
	HealthStore
	// Close releases the backend. Calls after Close return unavailable.
	Close() error
}

// SiteStore keeps sites and their policy (the implicit default profile).
type SiteStore interface {
	// CreateSite stores a validated site with its policy; conflict when the
	// id or name exists.
	CreateSite(ctx context.Context, s Site, p SitePolicy) error
	GetSite(ctx context.Context, id string) (Site, error)
	// ListSites returns every site, soft-deleted ones included, by name.
	ListSites(ctx context.Context) ([]Site, error)
	// UpdateSite applies fn to the stored site and saves the result if it
	// validates; the id cannot change and the name stays unique.
	UpdateSite(ctx context.Context, id string, fn func(*Site) error) (Site, error)
	GetSitePolicy(ctx context.Context, siteID string) (SitePolicy, error)
	UpdateSitePolicy(ctx context.Context, siteID string, fn func(*SitePolicy) error) (SitePolicy, error)
}

// NodeTransition asks the store to move a node From -> To under the
// lifecycle rules (CheckTransition). Actor and TaskID are in Context;
// IdentityRetained is taken from the stored node, not the caller.
type NodeTransition struct {
	NodeID  string
	From    NodeState
	To      NodeState
	Context TransitionContext
}

// NodeFilter selects nodes; zero fields match everything. Hostname
// matches regardless of case. Limit > 0 asks for one page: at most Limit
// nodes in id order, after the node id After (from the start when empty);
// Limit 0 returns every match by hostname then id.
type NodeFilter struct {
	SiteID   string
	Status   NodeState
	Hostname string
	After    string
	Limit    int
}

// NodeStore keeps node records. A node id is never reused, even after the
// node is deleted; a hostname is unique per site among undeleted nodes.
type NodeStore interface {
	// CreateNode stores a new node in bootstrap_issued or enrolling.
	CreateNode(ctx context.Context, n Node) error
	GetNode(ctx context.Context, id string) (Node, error)
	ListNodes(ctx context.Context, f NodeFilter) ([]Node, error)
	// CountNodes counts the nodes of every site in every state from the
	// node indexes (no record is read): one line per site and state that
	// has nodes, ordered by site id then state.
	CountNodes(ctx context.Context) ([]NodeCount, error)
	// TransitionNode moves a node if it is in t.From; conflict naming the
	// current state otherwise. Replaying a transition that already took
	// effect (node already in t.To with the same owning task) succeeds.
	TransitionNode(ctx context.Context, t NodeTransition) (Node, error)
	// UpdateNode changes binding fields (host, MAAS system id, ...); fn may
	// not change the id, site, status or owning task. The write may share
	// its commit with concurrent ones, so fn may run more than once, each
	// time on the node as stored: it changes the node and sets only what
	// it derives from it.
	UpdateNode(ctx context.Context, id string, fn func(*Node) error) (Node, error)
	// DeleteUnenrolledNode removes an enrolling node whose agent never
	// enrolled, with its enrollment tokens and observed MAAS state: the
	// record of a cancelled onboarding (seed 001 §4.6); its hostname is
	// free again. It returns the removed node. not_found for an unknown
	// node; conflict for one in another state, one that ever enrolled, or
	// one with agent tasks.
	DeleteUnenrolledNode(ctx context.Context, id string) (Node, error)
}

// RunFilter selects runs; zero fields match everything. Limit > 0 asks
// for one page: at most Limit runs in the list's order (request time,
// then id) after the run id After (from the start when empty); an After
// that names no run is invalid (field "after").
type RunFilter struct {
	SiteID   string
	BatchID  string
	NodeID   string
	Kind     RunKind
	Statuses []JobState
	// Mode selects decommissions by mode (a run without one never matches).
	Mode  DecommissionMode
	After string
	Limit int
}

// StageRecord is a stage attempt's journal entry.
type StageRecord struct {
	RunID   string
	Stage   Stage
	Attempt int
	Status  EventStatus
	Message string
	Details map[string]string
}

// RunStore keeps runs and their append-only event history. Writes that
// drive a run are fenced: they carry the site lease epoch and fail with
// conflict when a newer lease was granted since.
type RunStore interface {
	// CreateRun stores a new pending run of an existing site.
	CreateRun(ctx context.Context, r Run) error
	GetRun(ctx context.Context, id string) (Run, error)
	// ListRuns returns matching runs ordered by request time, then id.
	ListRuns(ctx context.Context, f RunFilter) ([]Run, error)
	// UpdateRun applies fn under the fence; status moves must be legal
	// (CheckJobMove) and id, kind and site cannot change. As with
	// UpdateNode, fn may run more than once.
	UpdateRun(ctx context.Context, f Fence, id string, fn func(*Run) error) (Run, error)
	// AdvanceRun is UpdateRun plus appending evs, in one transaction: the
	// journal write that ends a stage attempt.
	AdvanceRun(ctx context.Context, f Fence, id string, fn func(*Run) error, evs []RunEvent) (Run, []RunEvent, error)
	// RecordStage appends a stage event and moves the run's current stage
	// and attempt to it, atomically, under the fence.
	RecordStage(ctx context.Context, f Fence, rec StageRecord) (Run, RunEvent, error)
	// AppendRunEvents appends events under the fence and returns them with
	// their sequence numbers.
	AppendRunEvents(ctx context.Context, f Fence, runID string, evs []RunEvent) ([]RunEvent, error)
	// ListRunEvents returns up to limit events with Seq > afterSeq, in order.
	ListRunEvents(ctx context.Context, runID string, afterSeq uint64, limit int) ([]RunEvent, error)
}

// LeaseStore grants site ownership with a fencing epoch.
type LeaseStore interface {
	// ClaimLease grants or extends the site lease for holder. A new grant
	// (free, expired, or another holder's expired lease) gets a higher
	// epoch and no request; conflict while another holder's lease is
	// unexpired, and while an expired lease carries another daemon's
	// unexpired request (the site is kept for its preferred daemon).
	ClaimLease(ctx context.Context, siteID, holder string, ttl time.Duration) (Lease, error)
	// RequestLease records on the site's lease that holder, the site's
	// preferred daemon, asks for it: RequestedBy is holder and
	// RequestedUntil ttl from now; holder, epoch and expiry do not change.
	// The holder learns of it from its next renewal. Holder's own live
	// lease is returned unchanged. Invalid for a bad argument, not_found
	// when the site or its lease does not exist, conflict when the site's
	// preferred_daemon is not holder.
	RequestLease(ctx context.Context, siteID, holder string, ttl time.Duration) (Lease, error)
	// RenewLease extends l; conflict when l's epoch is no longer current.
	RenewLease(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// ReleaseLease ends l early; releasing a superseded lease is a no-op.
	ReleaseLease(ctx context.Context, l Lease) error
	GetLease(ctx context.Context, siteID string) (Lease, error)
}

// AuditFilter selects audit entries; zero fields match everything.
type AuditFilter struct {
	TargetKind string
	TargetID   string
	Actor      string
	Action     string
	AfterSeq   uint64
	Limit      int
	// Newest lists newest first; BeforeSeq (when not 0) then starts below
	// that sequence number, the page after one that ended there.
	Newest    bool
	BeforeSeq uint64
}

// AuditStore is the append-only audit log.
type AuditStore interface {
	// AppendAudit stores e, assigning Seq and At.
	AppendAudit(ctx context.Context, e AuditEntry) (AuditEntry, error)
	// AppendAudits stores es in order in one transaction (every entry or
	// none: invalid when one lacks actor, action or target kind), each
	// with the next Seq and the same At. A batch of 1,000 onboardings is
	// audited in one commit, not 1,000.
	AppendAudits(ctx context.Context, es []AuditEntry) ([]AuditEntry, error)
	// ListAudit returns matching entries in Seq order.
	ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}

// TokenStore keeps admin API tokens by hash.
type TokenStore interface {
	// CreateAdminToken stores t; conflict on a duplicate id or hash.
	CreateAdminToken(ctx context.Context, t AdminToken) error
	// AdminTokenByHash finds a token, revoked or not; not_found otherwise.
	AdminTokenByHash(ctx context.Context, hash string) (AdminToken, error)
	// ListAdminTokens returns every token, oldest first.
	ListAdminTokens(ctx context.Context) ([]AdminToken, error)
	// ListAdminTokenPage returns at most limit tokens in id order after
	// the id after (from the first when empty): one page of the list.
	ListAdminTokenPage(ctx context.Context, after string, limit int) ([]AdminToken, error)
	// RevokeAdminToken marks the token revoked; revoking twice succeeds.
	RevokeAdminToken(ctx context.Context, id string) (AdminToken, error)
}

// TaskFilter selects agent tasks; zero fields match everything.
type TaskFilter struct {
	NodeID string
	Type   TaskType
	States []TaskState
}

// TaskStore is the agent task queue (DESIGN.md §7).
type TaskStore interface {
	// EnqueueTask adds t as queued. When the node already has a task of the
	// same type that is queued, or dispatched with a live lease, that task
	// is returned instead (created=false); a dispatched task whose lease
	// lapsed is requeued and returned.
	EnqueueTask(ctx context.Context, t AgentTask) (task AgentTask, created bool, err error)
	// ClaimTask dispatches the node's oldest queued task (after requeueing
	// lapsed leases and expiring stale tasks) with a fresh sequence number
	// and a lease; ok=false when there is none.
	ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (task AgentTask, ok bool, err error)
	// CompleteTask records the result of a dispatched task; the node and
	// sequence must match the dispatch (conflict otherwise). Reporting the
	// same outcome twice succeeds.
	CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res TaskResult) (AgentTask, error)
	GetTask(ctx context.Context, id string) (AgentTask, error)
	ListTasks(ctx context.Context, f TaskFilter) ([]AgentTask, error)
}

// EnrollmentStore keeps one-time agent enrollment tokens and agent contact.
type EnrollmentStore interface {
	// CreateEnrollmentToken stores a token for a node and invalidates the
	// node's earlier unused tokens.
	CreateEnrollmentToken(ctx context.Context, t EnrollmentToken) error
	// ConsumeEnrollmentToken marks the token used by the key keyID, once:
	// not_found for an unknown hash, conflict when expired or used by
	// another key, forbidden for another node. A repeat by the same key
	// before expiry succeeds: the agent retrying after a lost answer.
	ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (EnrollmentToken, error)
	// NodeEnrollmentToken returns the node's newest token (the only one
	// that can work); not_found when it has none.
	NodeEnrollmentToken(ctx context.Context, nodeID string) (EnrollmentToken, error)
	// GrantEnrollmentRenewal lets the node's newest token be renewed once
	// before until (see EnrollmentToken.RenewBy): not_found without a
	// token, conflict when it was spent. Granting again moves until.
	GrantEnrollmentRenewal(ctx context.Context, nodeID string, until time.Time) (EnrollmentToken, error)
	// RenewEnrollmentToken spends the expired token hash of nodeID and
	// stores next in its place, in one transaction, under the rule of
	// daemon/store/rules.Renew (not_found for an unknown hash, forbidden
	// for another node's, conflict otherwise, with ErrRenewalNotGranted as
	// the cause when no grant is open). The same next again is answered
	// with the stored successor.
	RenewEnrollmentToken(ctx context.Context, hash, nodeID string, next EnrollmentToken) (EnrollmentToken, error)
	// ReinstateEnrollmentToken makes the node's token hash, superseded by
	// the node's newest token, the newest again with its own expiry, and
	// supersedes the newer one, in one transaction, under the rule of
	// daemon/store/rules.Reinstate: a deploy whose answer was lost was
	// applied late with hash's payload. not_found for an unknown hash,
	// forbidden for another node's, conflict when either token was used or
	// the newest did not supersede it; hash already the newest succeeds.
	ReinstateEnrollmentToken(ctx context.Context, nodeID, hash string) (EnrollmentToken, error)
	// ConsumeBootstrapTicket marks the bootstrap ticket (a token of
	// purpose TokenBootstrap) used, once: not_found for an unknown hash
	// or one that is not a ticket, conflict when it expired (superseded
	// by a newer token of its node included) or was used already.
	ConsumeBootstrapTicket(ctx context.Context, hash string) (EnrollmentToken, error)
	// TouchNodeContact records that the node's agent was heard from now.
	TouchNodeContact(ctx context.Context, nodeID string) error
}

// SiteConfigStore keeps per-site configuration records and run submission.
type SiteConfigStore interface {
	// CreatePowerOverride stores a validated override; conflict when the
	// site already has one for the same selector.
	CreatePowerOverride(ctx context.Context, o PowerOverride) (PowerOverride, error)
	// ListPowerOverrides returns the site's overrides by selector.
	ListPowerOverrides(ctx context.Context, siteID string) ([]PowerOverride, error)
	DeletePowerOverride(ctx context.Context, siteID, id string) error
	// UpsertRoCEAssignments inserts or updates every item, keyed by
	// (hostname, interface), all or none; it returns the stored items.
	UpsertRoCEAssignments(ctx context.Context, siteID string, items []RoCEAssignment) ([]RoCEAssignment, error)
	// ListRoCEAssignments returns the site's assignments, for one host
	// when hostname is set, ordered by hostname and interface.
	ListRoCEAssignments(ctx context.Context, siteID, hostname string) ([]RoCEAssignment, error)
	DeleteRoCEAssignment(ctx context.Context, siteID, id string) error
	// Submit creates the submission's runs and batch atomically.
	Submit(ctx context.Context, s Submission) (SubmissionResult, error)
	GetBatch(ctx context.Context, id string) (Batch, error)
	// ListBatches returns the matching batches in id order (a page when
	// f.Limit > 0), each with its runs counted by job state.
	ListBatches(ctx context.Context, f BatchFilter) ([]BatchCounts, error)
	// CountBatch returns batch id with its runs counted by job state,
	// without reading the runs' records whole.
	CountBatch(ctx context.Context, id string) (BatchCounts, error)
}

// MaasStateStore keeps the observed MAAS layer and drift record per node.
type MaasStateStore interface {
	// UpdateNodeMaasState applies fn to the node's record (a fresh one
	// with the node's site and MAAS system id when none exists) and saves
	// it; not_found when the node does not exist. The node id and site
	// cannot change.
	UpdateNodeMaasState(ctx context.Context, nodeID string, fn func(*NodeMaasState) error) (NodeMaasState, error)
	// UpdateNodeMaasStates is UpdateNodeMaasState for many nodes in one
	// transaction (one sync): fn is applied to each node's record in
	// nodeIDs order and every record is saved, or none when fn or a
	// record fails. Nodes that do not exist are skipped. It returns the
	// saved records, in nodeIDs order.
	UpdateNodeMaasStates(ctx context.Context, nodeIDs []string, fn func(*NodeMaasState) error) ([]NodeMaasState, error)
	// GetNodeMaasState returns the record; not_found when none exists.
	GetNodeMaasState(ctx context.Context, nodeID string) (NodeMaasState, error)
	// ListNodeMaasStates returns matching records ordered by node id.
	ListNodeMaasStates(ctx context.Context, f MaasStateFilter) ([]NodeMaasState, error)
}

// FeedStore keeps the webhook inbox and the per-site events cursors.
type FeedStore interface {
	// IngestWebhooks stores evs in one transaction (group commit),
	// assigning Seq and ReceivedAt. An event whose (site, id) was seen
	// before is not stored again: dup[i] is true for it. Invalid when an
	// event has no site, id or system id.
	IngestWebhooks(ctx context.Context, evs []WebhookEvent) (dup []bool, err error)
	// PendingWebhooks returns up to limit unprocessed events in Seq order.
	PendingWebhooks(ctx context.Context, limit int) ([]WebhookEvent, error)
	// AckWebhooks marks events processed by Seq; acking twice succeeds.
	// Their ids stay known for deduplication until pruned.
	AckWebhooks(ctx context.Context, seqs []uint64) error
	// PruneWebhooks forgets processed events received before t and
	// returns how many it removed.
	PruneWebhooks(ctx context.Context, before time.Time) (int, error)
	// GetFeedCursor returns the site's cursor; a zero UpdatedAt means it
	// was never set.
	GetFeedCursor(ctx context.Context, siteID string) (FeedCursor, error)
	// SetFeedCursor stores the cursor; conflict when it would move back.
	SetFeedCursor(ctx context.Context, c FeedCursor) error
}
