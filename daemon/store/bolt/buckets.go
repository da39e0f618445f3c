package bolt

// Bucket names. Records are JSON; index buckets hold ids.
var (
	bSites      = []byte("sites")
	bSiteNames  = []byte("site_names") // name -> site id
	bPolicies   = []byte("site_policies")
	bNodes      = []byte("nodes")
	bNodeHosts  = []byte("node_hostnames") // site id + hostname -> node id (undeleted)
	bRuns       = []byte("runs")
	bEvents     = []byte("run_events") // run id -> {seq: event}
	bLeases     = []byte("leases")
	bAudit      = []byte("audit") // seq -> entry
	bTokens     = []byte("admin_tokens")
	bTokenHash  = []byte("admin_token_hashes") // hash -> token id
	bTasks      = []byte("agent_tasks")
	bOpenTasks  = []byte("agent_tasks_open") // node id -> {task id}
	bTaskSeq    = []byte("agent_task_seq")   // node id -> last dispatch sequence
	bEnroll     = []byte("enrollment_tokens")
	bEnrollNode = []byte("enrollment_token_by_node") // node id -> newest hash
	bOverrides  = []byte("power_overrides")
	bOvrKeys    = []byte("power_override_keys") // site + type + value -> id
	bRoCE       = []byte("roce_assignments")
	bRoCEKeys   = []byte("roce_assignment_keys") // site + hostname + interface -> id
	bBatches    = []byte("batches")
	bIdem       = []byte("idempotency_keys") // key -> {request hash, result}
	bMaasState  = []byte("node_maas_state")  // node id -> observed MAAS state and drift
	bInbox      = []byte("webhook_inbox")    // seq -> webhook event
	bInboxIDs   = []byte("webhook_ids")      // site id + event id -> seq (deduplication)
	bInboxOpen  = []byte("webhook_pending")  // seq -> nothing (unprocessed events)
	bCursors    = []byte("feed_cursors")     // site id -> events cursor
	bOutbox     = []byte("outbox")           // seq -> lifecycle event
	bOutboxIDs  = []byte("outbox_ids")       // event id -> seq (idempotent append)
	bOutboxOpen = []byte("outbox_pending")   // seq -> node id (undelivered events)
	bOutboxDone = []byte("outbox_delivered") // delivered at + seq -> nothing (since schema 1)
	bMeta       = []byte("meta")             // schema version (since schema 1)
	bNodeIndex  = []byte("node_index")       // site, status, hostname + node id -> nothing (since schema 2)
	bRunIndex   = []byte("run_index")        // site, node, batch, status + request time + run id -> nothing (since schema 2)
)

var allBuckets = [][]byte{bSites, bSiteNames, bPolicies, bNodes, bNodeHosts, bRuns, bEvents, bLeases,
	bAudit, bTokens, bTokenHash, bTasks, bOpenTasks, bTaskSeq, bEnroll, bEnrollNode,
	bOverrides, bOvrKeys, bRoCE, bRoCEKeys, bBatches, bIdem, bMaasState, bInbox, bInboxIDs, bInboxOpen, bCursors,
	bOutbox, bOutboxIDs, bOutboxOpen, bOutboxDone, bMeta, bNodeIndex, bRunIndex}
